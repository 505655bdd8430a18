/**
 * One PDF → does pdf.js open it: its page count and the characters of text on page 1, or why not. Prints one JSON
 * line. Run in a child process per PDF (run.ts `--pages`, for the PDFs whose page 1 the server cannot draw), so a
 * PDF that hangs pdf.js only costs its own timeout.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

const file = process.argv[2]!
try {
  const document = await getDocument({ data: await Bun.file(file).bytes(), verbosity: 0 }).promise
  const content = await (await document.getPage(1)).getTextContent()
  const text = content.items
    .map((item) => ('str' in item ? item.str : ''))
    .join('')
    .replace(/\s/g, '').length
  console.log(JSON.stringify({ pages: document.numPages, text }))
} catch (error) {
  console.log(JSON.stringify({ error: (error as Error).message.split('\n')[0] }))
}
process.exit(0)
