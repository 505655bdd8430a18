/**
 * How a watermark looks, on page images and in downloaded PDFs alike: its text in lines at 30°, repeated across
 * the whole page, in a dark grey at a fifth of full strength — readable on white, and text under it stays readable.
 */
export const WATERMARK_STYLE = { angle: 30, grey: [77, 77, 89] as const, opacity: 0.2, perWidth: 28 } as const
