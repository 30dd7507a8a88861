import { afterAll, beforeAll, expect, test } from 'vitest'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { getBoxPhoto } from '#core/shipping/shipment-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { plainPng } from '#tests/support/photo-fixtures.ts'
import { type S3StandIn, startS3StandIn } from '#tests/support/s3-stand-in.ts'
import { ana, bruno, moderator, RATES, requestedShipment } from '#tests/support/shipment-fixtures.ts'
import { createS3FileStore } from './s3-file-store.ts'

// The warehouse's photos in S3-compatible storage (the stand-in): a packed box's photo, written
// there by the packing service and read back only for its owner and staff (package photos go
// through the same store and pipeline, core/uploads/stored-photos.ts).

const CREDENTIALS = { accessKeyId: 'AKIAWAREHOUSE', secretAccessKey: 'warehouse-secret', region: 'auto' }
let standIn: S3StandIn
beforeAll(async () => {
  standIn = await startS3StandIn({ ...CREDENTIALS, bucket: 'photos' })
})
afterAll(() => standIn.close())

test('a box photo goes to S3 and comes back to the owner and staff only', async () => {
  const { db, pool } = await createTestDatabase()
  const files = createS3FileStore({
    ...CREDENTIALS,
    endpoint: standIn.url,
    bucket: 'photos',
    prefix: '',
    timeoutMs: 5_000,
  })
  const orders = await createOrderTestDeps(db, pool, { files })
  const { shipment } = await requestedShipment(db, pool, orders)
  const png = new Blob([new Uint8Array(await plainPng())], { type: 'image/png' })
  await packShipment(orders.as(moderator), { id: shipment.id, version: 0, weight: '1250' }, RATES, [png])
  const keys = [...standIn.objects.keys()]
  expect(keys.some((key) => /^shipments\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/1\.webp$/.test(key))).toBe(true)
  const box = await getBoxPhoto(orders.as(ana), files, shipment.id, 'full')
  expect(Buffer.from(box.bytes).subarray(8, 12).toString()).toBe('WEBP')
  await expect(getBoxPhoto(orders.as(bruno), files, shipment.id, 'full')).rejects.toMatchObject({
    code: 'not_found',
  })
  // Storage down: an error, not a missing photo.
  standIn.failWith = 500
  try {
    await expect(getBoxPhoto(orders.as(ana), files, shipment.id, 'thumb')).rejects.toThrow(/HTTP 500/)
  } finally {
    standIn.failWith = null
  }
})
