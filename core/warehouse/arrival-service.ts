import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { applyRequestEvent, REQUEST_ENTITY } from '#core/orders/order-events.ts'
import { bumpVersion, type LockedRequest, lockRequest } from '#core/orders/quote-service.ts'
import { fieldNameOf } from '#core/orders/request-schemas.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import { removePhotos, type StoredPhoto, storePhotos } from '#core/uploads/stored-photos.ts'
import type { Executor } from '#db/client.ts'
import { packagePhotos, packages, requestItems } from '#db/schema/index.ts'
import { ARRIVAL_LIMITS, BookArrivalSchema, MarkOrderedSchema } from './arrival-schemas.ts'

/**
 * The warehouse's side of a paid request (docs/decisions/027-warehouse-arrivals.md): staff mark
 * the items bought at the shop, then book in each shop parcel as it arrives at the Osaka office
 * (a package: the items it holds with their weights, a shelf, condition notes, up to 8 photos).
 * Each is one transaction on the version the page showed, with its history row and the
 * customer's notification; photos are checked and written to the file store before it opens,
 * and removed again if it fails.
 */

/** Paid requests are bought; once anything is bought or arrives, the request is `in_progress`. */
const WORKING_STATUSES = ['paid', 'in_progress'] as const

function requireWorking(request: LockedRequest) {
  if (!(WORKING_STATUSES as readonly string[]).includes(request.status)) {
    throw new AppError('conflict', `Request ${request.id} is ${request.status}: nothing to buy or receive`, {
      reason: 'requestNotAllowed',
    })
  }
}

/** Moves a paid request to `in_progress` (the first purchase or arrival), or just its version on. */
async function advance(tx: Executor, request: LockedRequest, staff: OrderActor, version: number) {
  if (request.status === 'paid') {
    const applied = await applyRequestEvent(tx, {
      requestId: request.id,
      event: 'start_purchasing',
      actor: staff,
      expectedVersion: version,
    })
    return applied.version
  }
  return bumpVersion(tx, request)
}

/**
 * Staff mark every item still to buy as bought at the shop.
 * @throws AppError `unauthorized`, `forbidden`, `invalid`, `not_found`, `conflict`
 * (`requestChanged`; `requestNotAllowed`: not paid, or nothing left to buy).
 */
export async function markItemsOrdered(
  { db, actor }: OrderContext,
  input: unknown,
): Promise<{ version: number }> {
  const staff = staffActor(actor, 'handle_arrivals')
  const data = parse(MarkOrderedSchema, input)
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, data.id, data.version)
    requireWorking(request)
    const now = new Date()
    const moved = await tx
      .update(requestItems)
      .set({ status: 'ordered', updatedAt: now })
      .where(and(eq(requestItems.requestId, request.id), eq(requestItems.status, 'to_buy')))
      .returning({ id: requestItems.id, position: requestItems.position })
    if (moved.length === 0) {
      throw new AppError('conflict', `Request ${request.id} has nothing left to buy`, {
        reason: 'requestNotAllowed',
      })
    }
    const version = await advance(tx, request, staff, data.version)
    await recordOrderEvent(tx, {
      entityType: REQUEST_ENTITY,
      entityId: request.id,
      event: 'order_items',
      actor: staff,
      data: { positions: moved.map((item) => item.position).sort((a, b) => a - b) },
    })
    return { version }
  })
}

export type BookedPackage = { packageId: string; number: string; version: number }

/**
 * Books in one shop parcel: the ticked items (of this request, still to buy or bought) become
 * `received` with their weights and today's arrival, in a new package with its shelf, notes and
 * photos; the request moves to `in_progress` if it was only paid; the customer is told in the app
 * and by e-mail, in their language, with a link to the shipping tab where the photos are.
 * @throws AppError `unauthorized`, `forbidden`, `invalid` (field errors: weights, shelf, notes,
 * photos), `not_found`, `conflict` (`requestChanged`; `requestNotAllowed`: not paid;
 * `itemNotReceivable`: an item already received, unavailable or not this request's).
 */
export async function bookArrival(
  { db, actor, jobs, files, settings }: OrderContext,
  input: unknown,
  photos: readonly Blob[] = [],
): Promise<BookedPackage> {
  const staff = staffActor(actor, 'handle_arrivals')
  const data = parse(BookArrivalSchema, input)
  const received = data.items.filter((item) => item.received)
  const packageId = randomUUID()
  const stored = await storePhotos(files, {
    prefix: `packages/${packageId}`,
    uploads: photos,
    max: ARRIVAL_LIMITS.photos,
    reason: 'requestInvalid',
  })
  try {
    const { freeStorageDays } = await settings.get()
    return await db.transaction(async (tx) => {
      const request = await lockRequest(tx, data.id, data.version)
      requireWorking(request)
      const now = new Date()
      const rows = await lockReceivable(tx, request, data)
      const created = await storePackage(tx, { packageId, request, data, staff, stored, now })
      await receiveItems(tx, received, packageId, now)
      const version = await advance(tx, request, staff, data.version)
      const positions = rows.map((row) => row.position).sort((a, b) => a - b)
      await recordOrderEvent(tx, {
        entityType: REQUEST_ENTITY,
        entityId: request.id,
        event: 'package_received',
        actor: staff,
        data: { packageNumber: created.number, positions, photos: stored.length },
      })
      await notifyCustomer(tx, jobs, {
        userId: request.userId,
        type: 'items_arrived',
        params: {
          number: request.number,
          packageNumber: created.number,
          count: received.length,
          photos: stored.length,
          days: freeStorageDays,
        },
        requestId: request.id,
        link: '/user-dashboard/shipping',
      })
      return { packageId, number: created.number, version }
    })
  } catch (error) {
    await removePhotos(files, stored)
    throw error
  }
}

type ArrivalInput = z.output<typeof BookArrivalSchema>

/** Locks the ticked items of the request; refuses any already received, unavailable or not this request's. */
async function lockReceivable(tx: Executor, request: LockedRequest, data: ArrivalInput) {
  const received = data.items.filter((item) => item.received)
  const ids = received.map((item) => item.id)
  const rows = await tx
    .select({ id: requestItems.id, status: requestItems.status, position: requestItems.position })
    .from(requestItems)
    .where(and(eq(requestItems.requestId, request.id), inArray(requestItems.id, ids)))
    .for('update')
  const refused = data.items.flatMap((item, index) => {
    if (!item.received) return []
    const row = rows.find((candidate) => candidate.id === item.id)
    return row && (row.status === 'to_buy' || row.status === 'ordered')
      ? []
      : [fieldNameOf(['items', index, 'received'])]
  })
  if (refused.length > 0) {
    throw new AppError('conflict', `Items not receivable on request ${request.id}`, {
      reason: 'itemNotReceivable',
      fieldErrors: Object.fromEntries(refused.map((name) => [name, ['itemNotReceivable']])),
    })
  }
  return rows
}

type NewPackage = {
  packageId: string
  request: LockedRequest
  data: ArrivalInput
  staff: OrderActor
  stored: readonly StoredPhoto[]
  now: Date
}

/** Writes the package (its shelf, notes, who received it) and its photos' rows; returns its number. */
async function storePackage(tx: Executor, arrival: NewPackage) {
  const { packageId, request, data, staff, stored, now } = arrival
  const [created] = await tx
    .insert(packages)
    .values({
      id: packageId,
      userId: request.userId,
      // Required by the schema (`shelfRequired`); its type cannot say so.
      shelf: data.shelf ?? '',
      conditionNote: data.note ?? null,
      receivedBy: staff.id,
      arrivedAt: now,
    })
    .returning({ number: packages.number })
  if (!created) throw new Error('Unable to store a package: no row returned')
  if (stored.length > 0) {
    await tx.insert(packagePhotos).values(
      stored.map((entry) => ({
        packageId,
        position: entry.position,
        contentType: entry.photo.contentType,
        fileKey: entry.fileKey,
        thumbKey: entry.thumbKey,
        width: entry.photo.width,
        height: entry.photo.height,
        byteSize: entry.photo.bytes.byteLength,
        thumbByteSize: entry.thumb.bytes.byteLength,
        sha256: entry.photo.sha256,
      })),
    )
  }
  return created
}

/** Marks the ticked items `received` in the package, with their weights and today's arrival. */
async function receiveItems(tx: Executor, received: ArrivalInput['items'], packageId: string, now: Date) {
  for (const item of received) {
    await tx
      .update(requestItems)
      .set({
        status: 'received',
        packageId,
        weightGrams: item.weightGrams,
        receivedAt: now,
        updatedAt: now,
      })
      .where(eq(requestItems.id, item.id))
  }
}

export type PackagePhotoView = { id: string; position: number; width: number; height: number }

export type RequestPackage = {
  id: string
  number: string
  shelf: string
  conditionNote: string | null
  arrivedAt: Date
  items: { id: string; position: number; weightGrams: number | null }[]
  photos: PackagePhotoView[]
}

/** The packages that brought this request's items, oldest first (for a request page). */
export async function packagesOfRequest(db: Executor, requestId: string): Promise<RequestPackage[]> {
  const items = await db
    .select({
      id: requestItems.id,
      position: requestItems.position,
      weightGrams: requestItems.weightGrams,
      packageId: requestItems.packageId,
    })
    .from(requestItems)
    .where(eq(requestItems.requestId, requestId))
    .orderBy(asc(requestItems.position))
  const ids = [...new Set(items.flatMap((item) => (item.packageId ? [item.packageId] : [])))]
  if (ids.length === 0) return []
  const [rows, photos] = await Promise.all([
    db
      .select()
      .from(packages)
      .where(inArray(packages.id, ids))
      .orderBy(asc(packages.arrivedAt), asc(packages.id)),
    photosOf(db, ids),
  ])
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    shelf: row.shelf,
    conditionNote: row.conditionNote,
    arrivedAt: row.arrivedAt,
    items: items.filter((item) => item.packageId === row.id).map(({ packageId: _, ...item }) => item),
    photos: photos.get(row.id) ?? [],
  }))
}

/** Each package's photos in order, by package id. */
export async function photosOf(
  db: Executor,
  packageIds: readonly string[],
): Promise<Map<string, PackagePhotoView[]>> {
  const byPackage = new Map<string, PackagePhotoView[]>()
  if (packageIds.length === 0) return byPackage
  const rows = await db
    .select({
      id: packagePhotos.id,
      packageId: packagePhotos.packageId,
      position: packagePhotos.position,
      width: packagePhotos.width,
      height: packagePhotos.height,
    })
    .from(packagePhotos)
    .where(inArray(packagePhotos.packageId, [...packageIds]))
    .orderBy(asc(packagePhotos.packageId), asc(packagePhotos.position))
  for (const { packageId, ...photo } of rows)
    byPackage.set(packageId, [...(byPackage.get(packageId) ?? []), photo])
  return byPackage
}
