import { encode } from 'uqr'

/** The share link as a QR code, drawn as one SVG path (no markup strings, no canvas). */
export function QrCode(props: { text: string; label: string }) {
  const qr = encode(props.text, { ecc: 'M', border: 2 })
  let path = ''
  qr.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    })
  })
  return (
    <svg class="qr" viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={props.label} shape-rendering="crispEdges">
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
