import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { AppError } from '#core/shared/errors.ts'
import { limitConcurrency, MAX_CONCURRENT_PHOTOS } from './images.ts'
import { type LogoRefusal, MAX_LOGO_BYTES } from './logo-rules.ts'

export { LOGO_INPUT_ACCEPT, LOGO_REFUSALS, type LogoRefusal, MAX_LOGO_BYTES } from './logo-rules.ts'

/**
 * Store logos (the store guide editor, docs/decisions/026-store-guide-editor.md): a PNG or an
 * SVG as uploaded, turned into our own small PNG before anything stores it. An SVG is rasterised
 * here, so none of its markup (scripts, event handlers, links, styles) ever reaches a browser;
 * what could reach outside while rasterising (a DOCTYPE or entity, an external reference) is
 * refused first. No database and no HTTP here.
 */

/** The stored logo fits within this many pixels on each side (shown at 56 px, sharp at 3x). */
export const LOGO_MAX_EDGE = 192
/** Largest decoded size, in pixels: refuses decompression bombs before decoding. */
const MAX_LOGO_PIXELS = 16_000_000

export type ProcessedLogo = { png: Uint8Array; sha256: string; width: number; height: number }

const runLogoTask = limitConcurrency(MAX_CONCURRENT_PHOTOS)

/** What the bytes are by their content: a PNG, an SVG document, or neither. */
export function sniffLogoType(bytes: Uint8Array): 'png' | 'svg' | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (png.every((byte, index) => bytes[index] === byte)) return 'png'
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
  // An XML declaration, comments and a DOCTYPE (refused later, with its own message) may come
  // first; the first element must be <svg>.
  const rest = head.replace(
    /^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*/i,
    '',
  )
  return /^<svg[\s>]/.test(rest) ? 'svg' : undefined
}

/**
 * Why an SVG may not be rasterised, or null: a DOCTYPE (entities, external DTDs), a reference to
 * anything outside the file (only `#fragment` and `data:image/…` are allowed), an XInclude.
 */
export function unsafeSvg(text: string): string | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return 'a DOCTYPE or entity'
  if (/xi:include|XInclude/i.test(text)) return 'an XInclude'
  for (const match of text.matchAll(/(?:href|src)\s*=\s*(["'])([\s\S]*?)\1/gi)) {
    const target = (match[2] ?? '').trim()
    if (!target.startsWith('#') && !/^data:image\/(png|jpeg|gif|webp);/i.test(target)) {
      return `a reference to ${JSON.stringify(target.slice(0, 60))}`
    }
  }
  if (/url\(\s*["']?(?!#)(?!data:image\/)/i.test(text)) return 'a url() outside the file'
  if (/@import/i.test(text)) return 'a style import'
  return null
}

/**
 * Checks one uploaded logo and re-encodes it: at most `MAX_LOGO_BYTES`, a PNG or a safe SVG by its
 * content, decodable in full; the result is a PNG within `LOGO_MAX_EDGE`, transparent where the
 * logo is, with no metadata. Throws `AppError('invalid', …, { reason })` with a `LogoRefusal`.
 */
export async function processLogo(bytes: Uint8Array): Promise<ProcessedLogo> {
  if (bytes.byteLength === 0) throw refuse('logoEmpty', 'Empty logo upload')
  if (bytes.byteLength > MAX_LOGO_BYTES) {
    throw refuse('logoTooLarge', `Logo upload of ${bytes.byteLength} bytes`)
  }
  const type = sniffLogoType(bytes)
  if (!type) throw refuse('logoType', `Logo upload of ${bytes.byteLength} bytes is neither PNG nor SVG`)
  if (type === 'svg') {
    const why = unsafeSvg(new TextDecoder('utf-8', { fatal: false }).decode(bytes))
    if (why) throw refuse('logoUnsafe', `SVG logo refused: it holds ${why}`)
  }
  return runLogoTask(async () => {
    try {
      const options = { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'error' as const }
      let input = sharp(bytes, options)
      const metadata = await input.metadata()
      if (metadata.format !== type) {
        throw refuse('logoType', `Logo sniffed as ${type} decodes as ${metadata.format}`)
      }
      if (type === 'svg') {
        // Rendered at the density that makes its longer side LOGO_MAX_EDGE, so it stays sharp.
        const longer = Math.max(metadata.width ?? 0, metadata.height ?? 0)
        if (longer === 0) throw refuse('logoCorrupt', 'SVG logo without a size')
        const density = Math.min(2400, Math.max(1, (72 * LOGO_MAX_EDGE) / longer))
        input = sharp(bytes, { ...options, density })
      }
      const output = await input
        .resize({ width: LOGO_MAX_EDGE, height: LOGO_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
        .png({ compressionLevel: 9 })
        .toBuffer({ resolveWithObject: true })
      return {
        png: new Uint8Array(output.data),
        sha256: createHash('sha256').update(output.data).digest('hex'),
        width: output.info.width,
        height: output.info.height,
      }
    } catch (error) {
      if (error instanceof AppError) throw error
      const why = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
      throw refuse('logoCorrupt', `Logo upload cannot be decoded (${why})`)
    }
  })
}

function refuse(reason: LogoRefusal, message: string): AppError {
  return new AppError('invalid', message, { reason })
}
