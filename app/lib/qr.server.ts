import { encode } from 'uqr'

/**
 * A QR code as one SVG path of its dark modules (a 4-module quiet zone included in the size), so
 * the page draws it inline: no image request, no script, nothing for the CSP to allow.
 */
export function qrPath(text: string): { path: string; size: number } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 })
  let path = ''
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x + 4} ${y + 4}h1v1h-1z`
    })
  })
  return { path, size: size + 8 }
}
