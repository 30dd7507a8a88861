import { AppError, isAppError } from '#core/shared/errors.ts'
import type { FileStore } from './file-store.ts'
import { makeThumbnail, type ProcessedPhoto, processPhoto } from './images.ts'
import { PHOTO_REFUSALS, type PhotoRefusal } from './photo-rules.ts'

/**
 * Staff photos (a shop parcel's, a packed box's) on their way to the file store: checked by their
 * bytes and re-encoded without metadata (core/uploads/images.ts), each with a 320 px thumbnail,
 * written under keys we build **before** the transaction that records them, and removed again
 * when that transaction refuses (docs/decisions/027).
 */

/** A photo made safe, its thumbnail, and where both are in the file store. */
export type StoredPhoto = {
  position: number
  photo: ProcessedPhoto
  thumb: ProcessedPhoto
  fileKey: string
  thumbKey: string
}

/**
 * Checks and re-encodes the photos (at most `max`), then writes them and their thumbnails under
 * `prefix` (`<prefix>/1.webp`, `<prefix>/1-thumb.webp`…). A refused photo, or too many, is a field
 * error on `photos` (with the service's `reason`) and nothing is written.
 */
export async function storePhotos(
  files: FileStore,
  { prefix, uploads, max, reason }: { prefix: string; uploads: readonly Blob[]; max: number; reason: string },
): Promise<StoredPhoto[]> {
  if (uploads.length > max) {
    throw new AppError('invalid', `${uploads.length} photos`, {
      reason,
      fieldErrors: { photos: ['photosTooMany'] },
    })
  }
  const refusals = new Set<PhotoRefusal>()
  const processed = await Promise.all(
    uploads.map(async (upload) => {
      try {
        const claimed = { type: upload.type, name: (upload as Partial<File>).name }
        const photo = await processPhoto(new Uint8Array(await upload.arrayBuffer()), claimed)
        return { photo, thumb: await makeThumbnail(photo) }
      } catch (error) {
        const refusal = isAppError(error, 'invalid') ? error.details.reason : undefined
        if (!(PHOTO_REFUSALS as readonly (string | undefined)[]).includes(refusal)) throw error
        refusals.add(refusal as PhotoRefusal)
        return null
      }
    }),
  )
  if (refusals.size > 0) {
    throw new AppError('invalid', 'Photos refused', { reason, fieldErrors: { photos: [...refusals] } })
  }
  const stored = processed.flatMap((entry, index) =>
    entry
      ? [
          {
            ...entry,
            position: index + 1,
            fileKey: `${prefix}/${index + 1}.webp`,
            thumbKey: `${prefix}/${index + 1}-thumb.webp`,
          },
        ]
      : [],
  )
  try {
    for (const entry of stored) {
      await files.put(entry.fileKey, entry.photo.bytes)
      await files.put(entry.thumbKey, entry.thumb.bytes)
    }
  } catch (error) {
    await removePhotos(files, stored)
    throw error
  }
  return stored
}

/** Takes back what `storePhotos` wrote (the transaction refused); never throws. */
export async function removePhotos(files: FileStore, stored: readonly StoredPhoto[]) {
  await Promise.allSettled(
    stored.flatMap((entry) => [files.delete(entry.fileKey), files.delete(entry.thumbKey)]),
  )
}
