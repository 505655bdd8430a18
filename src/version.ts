import pkg from '../package.json' with { type: 'json' }

/** The version reported by /api/health and `pdfshare --version`, embedded at build time. */
export const VERSION: string = pkg.version
