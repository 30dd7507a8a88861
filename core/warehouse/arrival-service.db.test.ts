import { readdirSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { THUMBNAIL_EDGE } from '#core/uploads/images.ts'
import {
  notifications,
  orderEvents,
  packagePhotos,
  packages,
  purchaseRequests,
  requestItems,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { phoneJpeg, plainPng } from '#tests/support/photo-fixtures.ts'
import { refusal } from '#tests/support/refusal.ts'
import { insertPeople, paidRequest, requestVersion } from '#tests/support/warehouse-fixtures.ts'
import { bookArrival, markItemsOrdered, packagesOfRequest } from './arrival-service.ts'
import { getPackagePhoto, listStoredItems } from './stored-items.ts'

// The warehouse books in what arrives (docs/decisions/027): staff only, paid requests only, each
// item once, photos checked before anything is written, the customer told once.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup({ pay = true } = {}) {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  await insertPeople(db, [
    { ...ana, name: 'Ana Pérez' },
    { ...bruno, name: 'Bruno Díaz' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  const request = {
    userId: ana.id,
    items: [
      { unitPriceJpy: 2500, quantity: 1, domesticShippingJpy: 800 },
      { unitPriceJpy: 1200, quantity: 2, domesticShippingJpy: 0 },
    ],
  }
  const quoted = pay
    ? await paidRequest(orders, pool, { ...request, staff: admin, reference: 'MUFG TEST 1' })
    : await insertQuotedRequest(pool, request)
  const version = () => requestVersion(pool, quoted.requestId)
  const snapshot = async () => ({
    packages: (await db.select().from(packages)).length,
    photos: (await db.select().from(packagePhotos)).length,
    items: (await db.select().from(requestItems)).map((item) => [item.status, item.weightGrams]),
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
    files: filesIn(orders.files.root),
  })
  return { db, pool, orders, quoted, version, snapshot }
}

function filesIn(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort()
}

const blob = (bytes: Uint8Array, type: string) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type })

test('staff mark the items bought, then book the parcel in: weights, shelf, photos, history, customer told once', async () => {
  const { db, pool, orders, quoted, version, snapshot } = await setup()
  const [first, second] = quoted.itemIds as [string, string]
  const ordered = await markItemsOrdered(orders.as(moderator), {
    id: quoted.requestId,
    version: await version(),
  })
  const request = (
    await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId))
  )[0]
  expect(request).toMatchObject({ status: 'in_progress', version: ordered.version })
  expect((await db.select().from(requestItems)).map((item) => item.status)).toEqual(['ordered', 'ordered'])
  // Nothing left to buy: a second click is refused, nothing moves.
  expect(
    await refusal(markItemsOrdered(orders.as(moderator), { id: quoted.requestId, version: ordered.version })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'requestNotAllowed',
  })

  const jobsBefore = await countJobs(pool, 'notification.email')
  const booked = await bookArrival(
    orders.as(moderator),
    {
      id: quoted.requestId,
      version: ordered.version,
      items: [
        { id: first, received: 'on', weight: '1,250' },
        { id: second, weight: '' },
      ],
      shelf: ' A-3 ',
      note: 'Box dented, item fine',
    },
    [blob(await phoneJpeg(), 'image/jpeg'), blob(await plainPng(), 'image/png')],
  )
  expect(booked.number).toMatch(/^PK-\d{6}$/)
  const [pkg] = await db.select().from(packages)
  expect(pkg).toMatchObject({
    userId: ana.id,
    shelf: 'A-3',
    conditionNote: 'Box dented, item fine',
    receivedBy: moderator.id,
  })
  const items = await db.select().from(requestItems).orderBy(requestItems.position)
  expect(items.map((item) => [item.status, item.weightGrams, item.packageId])).toEqual([
    ['received', 1250, booked.packageId],
    ['ordered', null, null],
  ])
  const photos = await db.select().from(packagePhotos).orderBy(packagePhotos.position)
  expect(photos.map((photo) => [photo.position, photo.contentType])).toEqual([
    [1, 'image/webp'],
    [2, 'image/webp'],
  ])
  expect(filesIn(orders.files.root)).toEqual(
    [1, 2]
      .flatMap((n) => [
        `packages/${booked.packageId}/${n}-thumb.webp`,
        `packages/${booked.packageId}/${n}.webp`,
      ])
      .sort(),
  )
  const told = await db.select().from(notifications).where(eq(notifications.type, 'items_arrived'))
  expect(told).toEqual([
    expect.objectContaining({
      userId: ana.id,
      type: 'items_arrived',
      link: '/user-dashboard/shipping',
      params: { number: quoted.requestNumber, packageNumber: booked.number, count: 1, photos: 2, days: 30 },
    }),
  ])
  expect(await countJobs(pool, 'notification.email')).toBe(jobsBefore + 1)
  const history = await db.select().from(orderEvents).where(eq(orderEvents.event, 'package_received'))
  expect(history).toEqual([
    expect.objectContaining({
      actorKind: 'staff',
      actorId: moderator.id,
      data: { packageNumber: booked.number, positions: [1], photos: 2 },
    }),
  ])

  // The same item again (a second tab, a double submit): refused, nothing written.
  const before = await snapshot()
  expect(
    await refusal(
      bookArrival(
        orders.as(admin),
        {
          id: quoted.requestId,
          version: booked.version,
          items: [{ id: first, received: 'on', weight: '900' }],
          shelf: 'B-1',
        },
        [blob(await plainPng(), 'image/png')],
      ),
    ),
  ).toMatchObject({
    code: 'conflict',
    reason: 'itemNotReceivable',
    fields: { 'items[0].received': ['itemNotReceivable'] },
  })
  expect(await snapshot()).toEqual(before)

  // The owner sees it in the shipping tab with its photos and free days; nobody else does.
  const now = new Date(pkg?.arrivedAt.getTime() ?? 0)
  const stored = await listStoredItems(orders.as(ana), { now, freeDays: 30, feePerDayJpy: 100 })
  expect(stored).toEqual([
    expect.objectContaining({
      id: first,
      requestNumber: quoted.requestNumber,
      weightGrams: 1250,
      packageNumber: booked.number,
      storage: expect.objectContaining({ daysLeft: 30, endingSoon: false }),
    }),
  ])
  expect(stored[0]?.photos.map((photo) => photo.position)).toEqual([1, 2])
  expect(await listStoredItems(orders.as(bruno), { now, freeDays: 30, feePerDayJpy: 100 })).toEqual([])
  expect(await packagesOfRequest(db, quoted.requestId)).toEqual([
    expect.objectContaining({
      number: booked.number,
      items: [{ id: first, position: 1, weightGrams: 1250 }],
    }),
  ])

  // Photos: the owner and staff; another customer and anonymous get nothing.
  const photoId = photos[0]?.id ?? ''
  const full = await getPackagePhoto(orders.as(ana), orders.files, photoId, 'full')
  const thumb = await getPackagePhoto(orders.as(moderator), orders.files, photoId, 'thumb')
  expect(full.contentType).toBe('image/webp')
  const thumbSize = await sharp(thumb.bytes).metadata()
  expect(thumbSize.format).toBe('webp')
  expect(Math.max(thumbSize.width ?? 0, thumbSize.height ?? 0)).toBeLessThanOrEqual(THUMBNAIL_EDGE)
  expect(thumb.sha256).not.toBe(full.sha256)
  expect(await refusal(getPackagePhoto(orders.as(bruno), orders.files, photoId, 'full'))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(getPackagePhoto(orders.as(null), orders.files, photoId, 'full'))).toMatchObject({
    code: 'unauthorized',
  })
  expect(
    await refusal(getPackagePhoto(orders.as(ana), orders.files, '../../etc/passwd', 'full')),
  ).toMatchObject({ code: 'not_found' })
})

test('bad input, wrong people and unpaid requests: a clear refusal and nothing written, no file left behind', async () => {
  const { orders, quoted, version, snapshot } = await setup()
  const [first] = quoted.itemIds as [string]
  const v = await version()
  const good = {
    id: quoted.requestId,
    version: v,
    items: [{ id: first, received: 'on', weight: '500' }],
    shelf: 'A-1',
  }
  const before = await snapshot()
  const cases: [string, () => Promise<unknown>, Record<string, unknown>][] = [
    ['anonymous', () => bookArrival(orders.as(null), good), { code: 'unauthorized' }],
    ['the customer', () => bookArrival(orders.as(ana), good), { code: 'forbidden' }],
    [
      'another customer',
      () => markItemsOrdered(orders.as(bruno), { id: quoted.requestId, version: v }),
      { code: 'forbidden' },
    ],
    [
      'nothing ticked',
      () => bookArrival(orders.as(admin), { ...good, items: [{ id: first, weight: '500' }] }),
      { code: 'invalid', fields: { items: ['noItemTicked'] } },
    ],
    [
      'no weight',
      () => bookArrival(orders.as(admin), { ...good, items: [{ id: first, received: 'on', weight: ' ' }] }),
      { code: 'invalid', fields: { 'items[0].weight': ['weightRequired'] } },
    ],
    [
      'decimal grams',
      () => bookArrival(orders.as(admin), { ...good, items: [{ id: first, received: 'on', weight: '1.5' }] }),
      { code: 'invalid', fields: { 'items[0].weight': ['weightWhole'] } },
    ],
    [
      'negative grams',
      () => bookArrival(orders.as(admin), { ...good, items: [{ id: first, received: 'on', weight: '-20' }] }),
      { code: 'invalid', fields: { 'items[0].weight': ['weightWhole'] } },
    ],
    [
      'zero grams',
      () => bookArrival(orders.as(admin), { ...good, items: [{ id: first, received: 'on', weight: '0' }] }),
      { code: 'invalid', fields: { 'items[0].weight': ['weightRange'] } },
    ],
    [
      'over 30 kg',
      () =>
        bookArrival(orders.as(admin), { ...good, items: [{ id: first, received: 'on', weight: '30001' }] }),
      { code: 'invalid', fields: { 'items[0].weight': ['weightRange'] } },
    ],
    [
      'weight as an object',
      () =>
        bookArrival(orders.as(admin), {
          ...good,
          items: [{ id: first, received: 'on', weight: { $gt: 1 } }],
        }),
      { code: 'invalid', fields: { 'items[0].weight': ['weightWhole'] } },
    ],
    [
      'no shelf',
      () => bookArrival(orders.as(admin), { ...good, shelf: '   ' }),
      { code: 'invalid', fields: { shelf: ['shelfRequired'] } },
    ],
    [
      'shelf too long',
      () => bookArrival(orders.as(admin), { ...good, shelf: 'x'.repeat(41) }),
      { code: 'invalid', fields: { shelf: ['shelfTooLong'] } },
    ],
    [
      'control characters',
      () => bookArrival(orders.as(admin), { ...good, note: 'a\u0000b' }),
      { code: 'invalid', fields: { note: ['invalidCharacters'] } },
    ],
    [
      'not an item id',
      () =>
        bookArrival(orders.as(admin), {
          ...good,
          items: [{ id: "1' OR 1=1 --", received: 'on', weight: '5' }],
        }),
      { code: 'invalid' },
    ],
    [
      'another request’s item',
      () =>
        bookArrival(orders.as(admin), {
          ...good,
          items: [{ id: '00000000-0000-4000-8000-000000000000', received: 'on', weight: '5' }],
        }),
      { code: 'conflict', reason: 'itemNotReceivable' },
    ],
    [
      'a stale page',
      () => bookArrival(orders.as(admin), { ...good, version: v + 5 }),
      { code: 'conflict', reason: 'requestChanged' },
    ],
    [
      'a text file as a photo',
      () =>
        bookArrival(orders.as(admin), good, [new Blob(['<script>alert(1)</script>'], { type: 'image/png' })]),
      { code: 'invalid', fields: { photos: ['photoType'] } },
    ],
    [
      'nine photos',
      () =>
        bookArrival(
          orders.as(admin),
          good,
          Array.from({ length: 9 }, () => new Blob(['x'])),
        ),
      { code: 'invalid', fields: { photos: ['photosTooMany'] } },
    ],
  ]
  for (const [name, run, expected] of cases) {
    expect(await refusal(run()), name).toMatchObject(expected)
  }
  // A refused photo after a good one: the good one is not kept either.
  expect(
    await refusal(
      bookArrival(orders.as(admin), good, [
        blob(await plainPng(), 'image/png'),
        new Blob([new Uint8Array(10)], { type: 'image/jpeg' }),
      ]),
    ),
  ).toMatchObject({ code: 'invalid', fields: { photos: ['photoType'] } })
  expect(await snapshot()).toEqual(before)
})

test('a request not paid yet has nothing to receive', async () => {
  const { orders, quoted, version, snapshot } = await setup({ pay: false })
  const before = await snapshot()
  const input = {
    id: quoted.requestId,
    version: await version(),
    items: [{ id: quoted.itemIds[0] ?? '', received: 'on', weight: '500' }],
    shelf: 'A-1',
  }
  expect(
    await refusal(bookArrival(orders.as(admin), input, [blob(await plainPng(), 'image/png')])),
  ).toMatchObject({
    code: 'conflict',
    reason: 'requestNotAllowed',
  })
  expect(await refusal(markItemsOrdered(orders.as(admin), input))).toMatchObject({
    code: 'conflict',
    reason: 'requestNotAllowed',
  })
  expect(await snapshot()).toEqual(before)
})

test('two staff booking the same item at once: one package, the other refused', async () => {
  const { db, orders, quoted, version } = await setup()
  const v = await version()
  const input = {
    id: quoted.requestId,
    version: v,
    items: [{ id: quoted.itemIds[0] ?? '', received: 'on', weight: '700' }],
    shelf: 'C-2',
  }
  const results = await Promise.allSettled([
    bookArrival(orders.as(admin), input),
    bookArrival(orders.as(moderator), input),
  ])
  expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
  expect((await db.select().from(packages)).length).toBe(1)
  expect((await db.select().from(notifications).where(eq(notifications.type, 'items_arrived'))).length).toBe(
    1,
  )
})
