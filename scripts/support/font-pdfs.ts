import sharp from 'sharp'
import { assemblePdf, type PdfObject } from './pdf'

/** One line of text of the fixture below: what it says, in which font, and where (its baseline, in PDF points). */
export type FontLine = { label: string; text: string; baseline: number }

export const PAGE_WIDTH = 612
export const PAGE_HEIGHT = 792
export const FONT_SIZE = 24

/**
 * A one-page PDF whose every line is in a font it does not embed, as producers write them when they expect the
 * reader's system to have the font: the standard Helvetica and Times, Arial and Times New Roman (TrueType) for
 * Cyrillic and Greek, and CID fonts named by CJK encodings for Chinese, Japanese and Korean. A renderer without
 * font data draws only the standard 14 (if those) and leaves the rest of the page white.
 */
export function unembeddedFontsPdf(): { bytes: Uint8Array<ArrayBuffer>; lines: FontLine[] } {
  const lines: FontLine[] = [
    { label: 'Helvetica', text: 'Helvetica, the standard sans', baseline: 720 },
    { label: 'Times', text: 'Times-Roman, the standard serif', baseline: 640 },
    { label: 'Cyrillic in Arial', text: 'Привет, мир! Съешь же ещё', baseline: 560 },
    { label: 'Greek in Arial', text: 'Καλημέρα κόσμε', baseline: 480 },
    { label: 'Cyrillic in Times New Roman', text: 'Широкая электрификация', baseline: 400 },
    { label: 'Chinese', text: '你好，世界。中文字体', baseline: 320 },
    { label: 'Japanese', text: 'こんにちは、カタカナ', baseline: 240 },
    { label: 'Korean', text: '안녕하세요 한국어', baseline: 160 },
  ]
  // The simple TrueType fonts reach non-Latin letters through /Differences: each distinct character gets a code
  // from 128 up, named uniXXXX (how PDFium and pdf.js learn its Unicode value).
  const european = [...new Set(lines.slice(2, 5).flatMap((line) => [...line.text]))].filter((c) => c.charCodeAt(0) > 127)
  const codeOf = (c: string) => (c.charCodeAt(0) < 128 ? c : String.fromCharCode(128 + european.indexOf(c)))
  const differences = `[128 ${european.map((c) => `/uni${hex4(c.charCodeAt(0))}`).join(' ')}]`
  const literal = (text: string) =>
    `(${[...text]
      .map(codeOf)
      .join('')
      .replace(/[\\()]/g, (c) => `\\${c}`)})`
  const utf16 = (text: string) => `<${[...text].map((c) => hex4(c.charCodeAt(0))).join('')}>`

  const objects: PdfObject[] = []
  const add = (object: PdfObject) => objects.push(object)
  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')
  add('') // the page, below
  const trueType = (name: string, flags: number) => {
    const descriptor = add(
      `<< /Type /FontDescriptor /FontName /${name} /Flags ${flags} /FontBBox [-600 -300 2000 1000] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>`,
    )
    return add(
      `<< /Type /Font /Subtype /TrueType /BaseFont /${name} /FirstChar 32 /LastChar ${127 + european.length} /Widths [${Array(
        96 + european.length,
      )
        .fill(600)
        .join(
          ' ',
        )}] /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences ${differences} >> /FontDescriptor ${descriptor} 0 R >>`,
    )
  }
  const cjk = (name: string, encoding: string, ordering: string) => {
    const descriptor = add(
      `<< /Type /FontDescriptor /FontName /${name} /Flags 4 /FontBBox [0 -150 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>`,
    )
    const cidFont = add(
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (${ordering}) /Supplement 2 >> /FontDescriptor ${descriptor} 0 R /DW 1000 >>`,
    )
    return add(`<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /${encoding} /DescendantFonts [${cidFont} 0 R] >>`)
  }
  const fonts = {
    F1: add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    F2: add('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>'),
    F3: trueType('Arial', 32),
    F4: trueType('TimesNewRoman', 34), // serif + nonsymbolic
    F5: cjk('SimSun', 'UniGB-UCS2-H', 'GB1'),
    F6: cjk('MS-Mincho', 'UniJIS-UCS2-H', 'Japan1'),
    F7: cjk('Batang', 'UniKS-UCS2-H', 'Korea1'),
  }
  const draw = (font: keyof typeof fonts, line: FontLine, text: string) =>
    `BT /${font} ${FONT_SIZE} Tf 40 ${line.baseline} Td ${text} Tj ET`
  const [helvetica, times, cyrillic, greek, serifCyrillic, chinese, japanese, korean] = lines as [FontLine, ...FontLine[]]
  const content = [
    draw('F1', helvetica, literal(helvetica.text)),
    draw('F2', times!, literal(times!.text)),
    draw('F3', cyrillic!, literal(cyrillic!.text)),
    draw('F3', greek!, literal(greek!.text)),
    draw('F4', serifCyrillic!, literal(serifCyrillic!.text)),
    draw('F5', chinese!, utf16(chinese!.text)),
    draw('F6', japanese!, utf16(japanese!.text)),
    draw('F7', korean!, utf16(korean!.text)),
  ].join('\n')
  const contents = add({ dict: '', stream: content })
  const resources = Object.entries(fonts)
    .map(([name, object]) => `/${name} ${object} 0 R`)
    .join(' ')
  objects[2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << ${resources} >> >> /Contents ${contents} 0 R >>`
  return { bytes: assemblePdf(objects), lines }
}

const hex4 = (code: number) => code.toString(16).toUpperCase().padStart(4, '0')

/**
 * How many dark pixels (grey below 128) each line's band holds in a drawing of the whole page (a page image):
 * a line whose font was missing has only what a fallback could draw (its spaces and ASCII punctuation).
 */
export async function inkPerLine(image: Uint8Array, lines: FontLine[]): Promise<Record<string, number>> {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true })
  const scale = info.width / PAGE_WIDTH
  const ink: Record<string, number> = {}
  for (const line of lines) {
    const top = Math.max(0, Math.floor((PAGE_HEIGHT - line.baseline - FONT_SIZE) * scale))
    const bottom = Math.min(info.height, Math.ceil((PAGE_HEIGHT - line.baseline + FONT_SIZE / 3) * scale))
    let dark = 0
    for (let at = top * info.width; at < bottom * info.width; at++) if (data[at]! < 128) dark++
    ink[line.label] = dark
  }
  return ink
}
