/**
 * What a customer's photo may be, without the code that checks it (core/uploads/images.ts, which
 * needs sharp and runs on the server only): the browser's form reads these too.
 * docs/decisions/020-photo-uploads.md.
 */

/** Largest upload accepted, in bytes (the form parser's own limit should be a little above it). */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024

/**
 * The types accepted, known by their first bytes (never by the claimed type or the name). GIF,
 * WebP and AVIF animations keep their first frame. HEIC is refused: the prebuilt libvips of
 * sharp decodes AVIF but has no HEVC decoder. SVG is refused always (it can carry scripts), and
 * so is everything else (TIFF, PDF, HTML…).
 */
export const ACCEPTED_PHOTO_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
] as const
export type AcceptedPhotoType = (typeof ACCEPTED_PHOTO_TYPES)[number]
/**
 * For `<input type="file" accept=…>`. Listing the types (not `image/*`) also makes iPhones
 * convert their HEIC photos to JPEG when uploading.
 */
export const PHOTO_INPUT_ACCEPT = ACCEPTED_PHOTO_TYPES.join(',')

/** The `details.reason` of each refusal (keys of `errors.reasons` in the locale files). */
export const PHOTO_REFUSALS = ['photoEmpty', 'photoTooLarge', 'photoType', 'photoCorrupt'] as const
export type PhotoRefusal = (typeof PHOTO_REFUSALS)[number]
