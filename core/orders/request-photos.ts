import { and, eq } from 'drizzle-orm'
import { actorKindFor } from '#core/shared/actor-kind.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import { type ProcessedPhoto, processPhoto } from '#core/uploads/images.ts'
import { PHOTO_REFUSALS, type PhotoRefusal } from '#core/uploads/photo-rules.ts'
import { purchaseRequests, requestItems, requestPhotos } from '#db/schema/index.ts'
import { fieldNameOf } from './request-schemas.ts'

// The photos of a request's items (one optional photo per item, docs/decisions/020): made safe
// before a request is stored, and read back for the request's owner and staff only.

/** Checks and re-encodes one photo; `processPhoto` unless a caller (a test) hands in another. */
export type PhotoProcessor = (
  bytes: Uint8Array,
  claimed: { type?: string; name?: string },
) => Promise<ProcessedPhoto>

/**
 * Every item's photo checked and re-encoded, all before the caller opens a transaction (image
 * work never holds one): the processed photo by item index. Each refused photo is a field error
 * on its item (`items[2].photo`: its `PhotoRefusal`), and then nothing is returned at all.
 * @throws AppError `invalid` with `fieldErrors` when any photo is refused.
 */
export async function preparePhotos(
  items: readonly { photo?: Blob | undefined }[],
  process: PhotoProcessor = processPhoto,
): Promise<Map<number, ProcessedPhoto>> {
  type Outcome = { index: number; photo: ProcessedPhoto } | { index: number; refusal: PhotoRefusal } | null
  const outcomes = await Promise.all(
    items.map(async (item, index): Promise<Outcome> => {
      if (!item.photo) return null
      const claimed = { type: item.photo.type, name: (item.photo as Partial<File>).name }
      try {
        return { index, photo: await process(new Uint8Array(await item.photo.arrayBuffer()), claimed) }
      } catch (error) {
        const reason = isAppError(error, 'invalid') ? error.details.reason : undefined
        if (!isPhotoRefusal(reason)) throw error
        return { index, refusal: reason }
      }
    }),
  )
  const photos = new Map<number, ProcessedPhoto>()
  const fieldErrors: Record<string, string[]> = {}
  for (const outcome of outcomes) {
    if (!outcome) continue
    if ('refusal' in outcome) fieldErrors[fieldNameOf(['items', outcome.index, 'photo'])] = [outcome.refusal]
    else photos.set(outcome.index, outcome.photo)
  }
  if (Object.keys(fieldErrors).length > 0) {
    throw new AppError('invalid', 'Purchase request photos refused', {
      reason: 'requestInvalid',
      fieldErrors,
    })
  }
  return photos
}

function isPhotoRefusal(reason: string | undefined): reason is PhotoRefusal {
  return (PHOTO_REFUSALS as readonly (string | undefined)[]).includes(reason)
}

export type RequestPhoto = {
  id: string
  /** The item's position (1, 2…), for the file's name. */
  position: number
  contentType: string
  bytes: Uint8Array
  byteSize: number
  sha256: string
}

/**
 * One photo of one request, for the request's owner or staff. Anyone else, a photo of another
 * request, and ids that are not ids all get `not_found`, the same answer as a missing photo.
 */
export async function getRequestPhoto(
  { db, actor }: ServiceContext,
  requestId: string,
  photoId: string,
): Promise<RequestPhoto> {
  const notFound = () =>
    new AppError('not_found', `Photo ${photoId} of purchase request ${requestId} not found`)
  if (!actor) throw new AppError('unauthorized', 'Request photos need a signed-in user')
  if (!isUuid(requestId) || !isUuid(photoId)) throw notFound()
  const [row] = await db
    .select({
      userId: purchaseRequests.userId,
      id: requestPhotos.id,
      position: requestItems.position,
      contentType: requestPhotos.contentType,
      bytes: requestPhotos.bytes,
      byteSize: requestPhotos.byteSize,
      sha256: requestPhotos.sha256,
    })
    .from(requestPhotos)
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestPhotos.requestId))
    .innerJoin(requestItems, eq(requestItems.id, requestPhotos.itemId))
    .where(and(eq(requestPhotos.id, photoId), eq(requestPhotos.requestId, requestId)))
  if (!row || !actorKindFor(actor, row)) throw notFound()
  const { userId: _, ...photo } = row
  return photo
}
