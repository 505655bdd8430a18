/**
 * Copying from the words laid over pages drawn on the server (image-layers.ts): the selection as the words read, a
 * space between two words of a line and a line break where a line (or a page) ends, as pdf.js's text layer copies.
 * The layer's lines hold their spaces (its innerText reads right), but a browser's copy of boxes moved into place
 * is its own: this one is the same in every browser. A selection that reaches past the pages (into the toolbar)
 * is left to the browser.
 */
export function copyWordsOf(container: HTMLElement): (event: ClipboardEvent) => void {
  return (event) => {
    const selection = document.getSelection()
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return
    const range = selection.getRangeAt(0)
    if (!container.contains(range.commonAncestorContainer)) return
    const words = [...container.querySelectorAll<HTMLSpanElement>('.image-text span')].filter((word) => range.intersectsNode(word))
    if (words.length === 0) return
    let text = ''
    for (const [index, word] of words.entries()) {
      const whole = word.textContent ?? ''
      // The first and last words may be selected in part.
      const start = range.startContainer === word.firstChild ? range.startOffset : 0
      const end = range.endContainer === word.firstChild ? range.endOffset : whole.length
      text += whole.slice(start, end)
      const next = words[index + 1]
      if (next) text += next.parentElement !== word.parentElement ? '\n' : ' ' // a line is one element (image-layers.ts)
    }
    event.clipboardData?.setData('text/plain', text)
    event.preventDefault()
  }
}
