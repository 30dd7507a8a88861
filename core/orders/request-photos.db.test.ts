import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { processPhoto } from '#core/uploads/images.ts'
import { purchaseRequests, requestPhotos, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { plainPng } from '#tests/support/photo-fixtures.ts'
import { getRequestPhoto } from './request-photos.ts'
import { submitRequest } from './request-service.ts'

// The service side of request photos: image work never holds a transaction, a processor's bug is
// not a refusal, and a photo is read back for its request's owner and staff only.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno', email: 'bruno@example.com', role: 'user' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
  ])
  return { db, pool, orders }
}

const photoFile = async () => new File([new Uint8Array(await plainPng())], 'a.png', { type: 'image/png' })

test('photos are checked and re-encoded while no transaction is open; then stored with the request', async () => {
  const { db, pool, orders } = await setup()
  // A transaction held open around the image work waits, idle, on this process: counted. Another
  // connection's query running at that moment (the job queue's poll, on a loaded machine) is not.
  const openTransactions: number[] = []
  const watching = async (bytes: Uint8Array, claimed: { type?: string; name?: string }) => {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
          AND backend_type = 'client backend' AND state = 'idle in transaction'`,
    )
    openTransactions.push(rows[0].n)
    return processPhoto(bytes, claimed)
  }
  await submitRequest(
    orders.as(ana),
    {
      items: [
        { url: 'https://jp.mercari.com/item/m1', quantity: 1, photo: await photoFile() },
        { url: 'https://jp.mercari.com/item/m2', quantity: 2, photo: await photoFile() },
      ],
    },
    { locale: 'es' },
    { processPhoto: watching },
  )
  expect(openTransactions).toEqual([0, 0])
  expect(await db.$count(requestPhotos)).toBe(2)
})

test('a processor that fails for another reason than a refusal is a bug: it propagates, nothing is written', async () => {
  const { db, orders } = await setup()
  const broken = async () => {
    throw new Error('libvips exploded')
  }
  await expect(
    submitRequest(
      orders.as(ana),
      { items: [{ url: 'https://jp.mercari.com/item/m1', quantity: 1, photo: await photoFile() }] },
      { locale: 'es' },
      { processPhoto: broken },
    ),
  ).rejects.toThrow('libvips exploded')
  expect(await db.$count(purchaseRequests)).toBe(0)
})

test("a photo is read back for its request's owner and staff; anyone else, and no one, are refused", async () => {
  const { db, orders } = await setup()
  const created = await submitRequest(
    orders.as(ana),
    { items: [{ url: 'https://jp.mercari.com/item/m1', quantity: 1, photo: await photoFile() }] },
    { locale: 'en' },
  )
  const [row] = await db.select().from(requestPhotos)
  if (!row) throw new Error('a photo expected')
  for (const actor of [ana, moderator]) {
    const photo = await getRequestPhoto({ db, actor }, created.id, row.id)
    expect(photo).toMatchObject({ id: row.id, position: 1, contentType: 'image/webp', sha256: row.sha256 })
    expect(Buffer.from(photo.bytes).equals(Buffer.from(row.bytes))).toBe(true)
  }
  await expect(getRequestPhoto({ db, actor: bruno }, created.id, row.id)).rejects.toMatchObject({
    code: 'not_found',
  })
  await expect(getRequestPhoto({ db, actor: null }, created.id, row.id)).rejects.toMatchObject({
    code: 'unauthorized',
  })
})
