/** A word of a page's text as the server sends it (`/pages/:n/text`): its box in points, its text, and whether a line ends after it. */
export type Word = [left: number, top: number, width: number, height: number, text: string, lineEnd: 0 | 1]

/** A link of a page as the server sends it with its text: its box as fractions of the page, and its address or page (from 1). */
export type PageLink = [left: number, top: number, width: number, height: number, target: string | number]

/** A page of the image viewer (image-viewer.ts), which its find (image-find.ts) reads too: its image, and its text once fetched. */
export type ImagePage = { number: number; div: HTMLDivElement; img: HTMLImageElement; text?: Promise<Word[]>; layer?: HTMLDivElement }
