/** The loading and error states shown over the document area. */
export type Status = {
  loading(progress?: number): void
  ready(): void
  error(message: string, downloadUrl: string | null): void
}

export function createStatus(element: HTMLElement): Status {
  const set = (state: string, build: (el: HTMLElement) => void) => {
    element.dataset.state = state
    element.replaceChildren()
    build(element)
    element.hidden = state === 'ready'
  }
  return {
    loading(progress) {
      set('loading', (el) => {
        const spinner = document.createElement('div')
        spinner.className = 'spinner'
        const text = document.createElement('p')
        text.textContent = progress === undefined ? 'Loading document…' : `Loading document… ${Math.round(progress * 100)}%`
        el.append(spinner, text)
      })
    },
    ready() {
      set('ready', () => {})
    },
    error(message, downloadUrl) {
      set('error', (el) => {
        const title = document.createElement('p')
        title.className = 'status-title'
        title.textContent = 'This document cannot be displayed'
        const detail = document.createElement('p')
        detail.textContent = message
        el.append(title, detail)
        if (downloadUrl) {
          const link = document.createElement('a')
          link.href = downloadUrl
          link.className = 'button'
          link.textContent = 'Download the PDF instead'
          el.append(link)
        }
      })
    },
  }
}
