/**
 * The subject and the text and HTML parts of a raw mail as nodemailer writes it (multipart/alternative; parts in
 * quoted-printable or base64; the subject in RFC 2047 words when it is not ASCII), decoded to UTF-8: enough to read
 * the mails the test SMTP server received, in any language.
 */
export function decodedMail(raw: string): { subject: string; text: string; html: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const headers = head.replace(/\r?\n[ \t]+/g, ' ')
  const subject = decodeWords(/^Subject: (.*)$/m.exec(headers)?.[1] ?? '')
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1]
  const body = rest.join('\r\n\r\n')
  const parts = boundary === undefined ? [`${head}\r\n\r\n${body}`] : body.split(`--${boundary}`)
  const partOf = (type: string) => {
    const part = parts.find((one) => new RegExp(`^Content-Type: ${type}`, 'im').test(one))
    if (part === undefined) return ''
    const at = part.search(/\r?\n\r?\n/)
    const [partHead, content] = [part.slice(0, at), part.slice(at).trim()]
    if (/^Content-Transfer-Encoding: base64/im.test(partHead)) return Buffer.from(content.replace(/\s/g, ''), 'base64').toString('utf8')
    if (/^Content-Transfer-Encoding: quoted-printable/im.test(partHead)) return quotedPrintable(content.replace(/=\r?\n/g, ''))
    return content
  }
  return { subject, text: partOf('text/plain'), html: partOf('text/html') }
}

const quotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')

/** A header's RFC 2047 words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded; the space between two such words is not text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? `\u0000B${text}\u0000` : `\u0000Q${text}\u0000`,
    )
    .replace(/(?:\u0000([QB])([^\u0000]*)\u0000)+/g, (words) => {
      // Adjacent words are one run of bytes: a character may be split between two of them.
      const bytes = [...words.matchAll(/\u0000([QB])([^\u0000]*)\u0000/g)].map(([, encoding, text]) =>
        encoding === 'B'
          ? Buffer.from(text!, 'base64')
          : Buffer.from(
              text!.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
              'latin1',
            ),
      )
      return Buffer.concat(bytes).toString('utf8')
    })
}
