import { and, asc, eq, inArray } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import { isStaff, type ServiceContext } from '#core/shared/service-context.ts'
import type { FileStore } from '#core/uploads/file-store.ts'
import type { Executor } from '#db/client.ts'
import {
  packagePhotos,
  packages,
  purchaseRequests,
  requestItems,
  shipmentItems,
  shipments,
} from '#db/schema/index.ts'
import { type PackagePhotoView, photosOf } from './arrival-service.ts'
import { type StorageCountdown, storageCountdown, storageFeeOf } from './storage.ts'

/**
 * What a customer has at our office (the shipping tab, docs/decisions/027): every item received
 * and not yet shipped, with its photos, weight, arrival and free storage left; and the photos
 * themselves, for the package's owner and staff only.
 */

export type StoredItem = {
  id: string
  requestId: string
  requestNumber: string
  position: number
  title: string | null
  url: string
  shopHost: string
  quantity: number
  weightGrams: number
  receivedAt: Date
  packageNumber: string
  photos: PackagePhotoView[]
  storage: StorageCountdown
  /**
   * What its storage has cost so far past its free days (docs/decisions/037): the days, the daily
   * fee in force and their product, before tax; frozen while it waits in a shipment request.
   */
  storageFee: { days: number; feePerDayJpy: number; feeJpy: number }
  /** The open shipment request it waits in (its free storage is paused meanwhile), or null. */
  shipment: { id: string; number: string } | null
}

/**
 * The signed-in customer's items at the office, the oldest arrival first (whose free storage ends
 * first). `now` and `freeDays`: the clock and the setting in force.
 * @throws AppError `unauthorized` without a user.
 */
export async function listStoredItems(
  { db, actor }: ServiceContext,
  { now, freeDays, feePerDayJpy }: { now: Date; freeDays: number; feePerDayJpy: number },
): Promise<StoredItem[]> {
  if (!actor) throw new AppError('unauthorized', 'The shipping tab needs a signed-in user')
  const rows = await db
    .select({
      id: requestItems.id,
      requestId: requestItems.requestId,
      requestNumber: purchaseRequests.number,
      position: requestItems.position,
      title: requestItems.title,
      url: requestItems.url,
      shopHost: requestItems.shopHost,
      quantity: requestItems.quantity,
      weightGrams: requestItems.weightGrams,
      receivedAt: requestItems.receivedAt,
      reservedAt: requestItems.reservedAt,
      pausedDays: requestItems.storagePausedDays,
      packageId: requestItems.packageId,
      packageNumber: packages.number,
    })
    .from(requestItems)
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
    .innerJoin(packages, eq(packages.id, requestItems.packageId))
    .where(and(eq(purchaseRequests.userId, actor.id), eq(requestItems.status, 'received')))
    .orderBy(asc(requestItems.receivedAt), asc(purchaseRequests.number), asc(requestItems.position))
  const [photos, open] = await Promise.all([
    photosOf(db, [...new Set(rows.map((row) => row.packageId as string))]),
    openShipmentsOf(
      db,
      rows.map((row) => row.id),
    ),
  ])
  return rows.map(({ packageId, weightGrams, receivedAt, reservedAt, pausedDays, ...row }) => {
    const arrived = receivedAt ?? now
    return {
      ...row,
      weightGrams: weightGrams ?? 0,
      receivedAt: arrived,
      photos: photos.get(packageId as string) ?? [],
      storage: storageCountdown(arrived, now, freeDays, { reservedAt, pausedDays }),
      storageFee: storageFeeOf({ receivedAt: arrived, reservedAt, pausedDays }, now, {
        freeStorageDays: freeDays,
        storageFeePerDayJpy: feePerDayJpy,
      }),
      shipment: open.get(row.id) ?? null,
    }
  })
}

export type PackagePhotoFile = {
  bytes: Uint8Array
  contentType: string
  sha256: string
  position: number
  packageNumber: string
}

/**
 * One package photo (or its thumbnail) for the package's owner or staff. Anyone else, ids that
 * are not ids and a file gone from the store all get `not_found`, as a missing photo does.
 * @throws AppError `unauthorized` without a user, `not_found`.
 */
export async function getPackagePhoto(
  { db, actor }: ServiceContext,
  files: FileStore,
  photoId: string,
  size: 'full' | 'thumb',
): Promise<PackagePhotoFile> {
  const notFound = () => new AppError('not_found', `Package photo ${String(photoId).slice(0, 80)} not found`)
  if (!actor) throw new AppError('unauthorized', 'Package photos need a signed-in user')
  if (!isUuid(photoId)) throw notFound()
  const [row] = await db
    .select({
      userId: packages.userId,
      packageNumber: packages.number,
      position: packagePhotos.position,
      contentType: packagePhotos.contentType,
      fileKey: packagePhotos.fileKey,
      thumbKey: packagePhotos.thumbKey,
      sha256: packagePhotos.sha256,
    })
    .from(packagePhotos)
    .innerJoin(packages, eq(packages.id, packagePhotos.packageId))
    .where(eq(packagePhotos.id, photoId))
  if (!row || !(isStaff(actor) || actor.id === row.userId)) throw notFound()
  const bytes = await files.get(size === 'thumb' ? row.thumbKey : row.fileKey)
  if (!bytes) throw notFound()
  return {
    bytes,
    contentType: row.contentType,
    sha256: size === 'thumb' ? `${row.sha256.slice(0, 48)}-t` : row.sha256,
    position: row.position,
    packageNumber: row.packageNumber,
  }
}

/** Whether an item waits in an open shipment (for the storage list): by item id. */
export async function openShipmentsOf(db: Executor, itemIds: readonly string[]) {
  if (itemIds.length === 0) return new Map<string, { id: string; number: string }>()
  const rows = await db
    .select({ itemId: shipmentItems.itemId, id: shipments.id, number: shipments.number })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(inArray(shipmentItems.itemId, [...itemIds]), eq(shipmentItems.active, true)))
  return new Map(rows.map((row) => [row.itemId, { id: row.id, number: row.number }]))
}
