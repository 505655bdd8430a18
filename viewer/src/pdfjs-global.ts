// pdf.js's viewer components (pdf_viewer.mjs) read the core library from `globalThis.pdfjsLib` when they are
// evaluated, so this module must be imported before them.
import * as pdfjsLib from 'pdfjs-dist'

;(globalThis as unknown as { pdfjsLib: typeof pdfjsLib }).pdfjsLib = pdfjsLib
