import { createHash } from 'node:crypto'
import sharp, { type Metadata, type OutputInfo } from 'sharp'
import { AppError } from '#core/shared/errors.ts'
import { type AcceptedPhotoType, MAX_PHOTO_BYTES, type PhotoRefusal } from './photo-rules.ts'

/**
 * Customers' photos (one optional "clear image of the product" per purchase-request item):
 * checked, decoded and re-encoded here before anything stores them (docs/decisions/020).
 * No database and no HTTP here: the caller hands in the bytes of one uploaded file.
 */

// The rules the browser reads too (its file input, its checks before sending).
export {
  ACCEPTED_PHOTO_TYPES,
  type AcceptedPhotoType,
  MAX_PHOTO_BYTES,
  PHOTO_INPUT_ACCEPT,
  PHOTO_REFUSALS,
  type PhotoRefusal,
} from './photo-rules.ts'

/** Largest decoded size, in pixels (width × height): refuses decompression bombs before decoding. */
export const MAX_PHOTO_PIXELS = 40_000_000
/** The output fits within this many pixels on each side; smaller photos are not enlarged. */
export const PHOTO_MAX_EDGE = 1600
/** WebP quality of the re-encoded photo. */
export const PHOTO_QUALITY = 82
/** Photos decoded at once in one process; more wait their turn (see `limitConcurrency`). */
export const MAX_CONCURRENT_PHOTOS = 2

export type ProcessedPhoto = {
  bytes: Uint8Array
  /** Of our own re-encoding, never the upload's: today always `image/webp`. */
  contentType: 'image/webp' | 'image/jpeg'
  width: number
  height: number
  /** Of `bytes`, lower-case hex. */
  sha256: string
}

/**
 * Checks, decodes and re-encodes one uploaded photo: at most `MAX_PHOTO_BYTES`, one of
 * `ACCEPTED_PHOTO_TYPES` by its content, decodable in full, at most `MAX_PHOTO_PIXELS`. The result
 * is turned upright by its EXIF orientation, fits within `PHOTO_MAX_EDGE`, is WebP in sRGB, and
 * carries no metadata at all (no EXIF, GPS, XMP, IPTC or ICC profile).
 *
 * `claimed` (the browser's type and the file's name) is only quoted in the developer message of
 * a refusal. Throws `AppError('invalid', …, { reason })` with a `PhotoRefusal`.
 */
export async function processPhoto(
  bytes: Uint8Array,
  claimed: { type?: string; name?: string } = {},
): Promise<ProcessedPhoto> {
  const described = describe(bytes, claimed)
  if (bytes.byteLength === 0) throw refuse('photoEmpty', `Empty photo upload ${described}`)
  if (bytes.byteLength > MAX_PHOTO_BYTES) {
    throw refuse('photoTooLarge', `Photo upload over ${MAX_PHOTO_BYTES} bytes ${described}`)
  }
  const type = sniffPhotoType(bytes)
  if (type === undefined) throw refuse('photoType', `Photo upload of an unaccepted type ${described}`)

  return runPhotoTask(async () => {
    let output: { data: Buffer; info: OutputInfo }
    try {
      const input = sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error' })
      const metadata = await input.metadata()
      if (!decodedAs(type, metadata)) {
        throw refuse(
          'photoType',
          `Photo upload sniffed as ${type} decodes as ${metadata.format} ${described}`,
        )
      }
      // Metadata is not copied unless asked for (no keepMetadata/keepExif/keepIccProfile), and
      // the output is converted to sRGB.
      output = await input
        .autoOrient()
        .resize({ width: PHOTO_MAX_EDGE, height: PHOTO_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: PHOTO_QUALITY })
        .toBuffer({ resolveWithObject: true })
    } catch (error) {
      if (error instanceof AppError) throw error
      const why = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
      throw refuse('photoCorrupt', `Photo upload cannot be decoded (${why}) ${described}`)
    }
    return {
      bytes: output.data,
      contentType: 'image/webp',
      width: output.info.width,
      height: output.info.height,
      sha256: createHash('sha256').update(output.data).digest('hex'),
    }
  })
}

/** The accepted type that `bytes` start like, or undefined (also for SVG, HEIC, PDF, HTML, zip…). */
export function sniffPhotoType(bytes: Uint8Array): AcceptedPhotoType | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end))
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  // ISO-BMFF: a `ftyp` box first, with the major brand and then the compatible ones.
  if (ascii(4, 8) === 'ftyp') {
    const boxSize =
      ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)
    const end = Math.min(boxSize, bytes.byteLength, 64)
    const brands = [ascii(8, 12)]
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(at, at + 4))
    if (brands.includes('avif') || brands.includes('avis')) return 'image/avif'
  }
  return undefined
}

/** libvips chooses its decoder by the content too; this checks that it chose the one we sniffed. */
function decodedAs(type: AcceptedPhotoType, metadata: Metadata): boolean {
  switch (type) {
    case 'image/jpeg':
      return metadata.format === 'jpeg'
    case 'image/png':
      return metadata.format === 'png'
    case 'image/webp':
      return metadata.format === 'webp'
    case 'image/gif':
      return metadata.format === 'gif'
    case 'image/avif':
      return metadata.format === 'heif' && metadata.compression === 'av1'
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte)
}

function refuse(reason: PhotoRefusal, message: string): AppError {
  return new AppError('invalid', message, { reason })
}

/** For logs: the size and what the browser claimed, quoted and cut short. */
function describe(bytes: Uint8Array, claimed: { type?: string; name?: string }): string {
  const quote = (value: string | undefined) =>
    value === undefined ? '-' : JSON.stringify(value.slice(0, 100))
  return `(${bytes.byteLength} bytes, claimed type ${quote(claimed.type)}, name ${quote(claimed.name)})`
}

/**
 * Runs at most `max` tasks at once; the others wait in order. sharp decodes on libuv's thread
 * pool (4 threads by default), so the event loop is not blocked; the cap keeps photos from
 * taking every pool thread (file system, DNS, zlib and crypto use it too) and bounds the memory
 * of decoding (up to `MAX_PHOTO_PIXELS` × 4 bytes for each photo at once).
 */
export function limitConcurrency(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    if (running < max) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      // Hand the slot straight to the next in line, or give it back.
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}

const runPhotoTask = limitConcurrency(MAX_CONCURRENT_PHOTOS)

/** The thumbnail's longest side, in pixels (lists and the arrival e-mail's page). */
export const THUMBNAIL_EDGE = 320

/**
 * A small WebP of a photo `processPhoto` already made safe (our own bytes, never an upload's):
 * for lists, so a page of stored items does not load every full photo.
 */
export async function makeThumbnail(photo: ProcessedPhoto): Promise<ProcessedPhoto> {
  return runPhotoTask(async () => {
    const output = await sharp(photo.bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
      .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: PHOTO_QUALITY })
      .toBuffer({ resolveWithObject: true })
    return {
      bytes: output.data,
      contentType: 'image/webp',
      width: output.info.width,
      height: output.info.height,
      sha256: createHash('sha256').update(output.data).digest('hex'),
    }
  })
}
