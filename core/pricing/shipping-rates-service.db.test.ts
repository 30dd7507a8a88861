import { and, eq } from 'drizzle-orm'
import { expect, test, vi } from 'vitest'
import { seedRateRows } from '#core/seed/data/shipping-rates.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { auditLog, shippingRates } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import type { RateRow } from './pricing.ts'
import { createShippingRatesService } from './shipping-rates-service.ts'

test('the seeded tables read back exactly, with the rows that rest on an assumption marked', async () => {
  const { db } = await createTestDatabase()
  expect((await seedDatabase(db)).shippingRates).toBe(33)
  const { tables, assumptions } = await createShippingRatesService({ db }).get()
  for (const row of seedRateRows()) {
    expect(tables[row.method].find((candidate) => candidate.ceilingG === row.ceilingG)?.prices).toEqual(
      row.prices,
    )
  }
  expect(tables.economic).toHaveLength(18)
  expect(tables.express).toHaveLength(15)
  expect(assumptions.map((assumption) => assumption.method)).toEqual(Array(18).fill('economic'))
})

test('a rate staff changed survives a restart: a filled table is never reseeded', async () => {
  const { db } = await createTestDatabase()
  await seedDatabase(db)
  const row = and(eq(shippingRates.method, 'express'), eq(shippingRates.ceilingG, 500))
  await db.update(shippingRates).set({ usa: 5000 }).where(row)
  expect(await seedDatabase(db)).toEqual({
    importRules: 0,
    settings: 0,
    shippingRates: 0,
    stores: 0,
    reviews: 0,
  })
  const { tables } = await createShippingRatesService({ db }).get()
  expect(tables.express[0]?.prices.usa).toBe(5000)
})

test('the database refuses rows no table can hold', async () => {
  const { db } = await createTestDatabase()
  const base = { ceilingG: 100, asia: 1, europeCanadaMexico: 1, usa: 1, centralSouthAmerica: 1 }
  await expect(db.insert(shippingRates).values({ ...base, method: 'teleport' })).rejects.toThrow()
  await expect(db.insert(shippingRates).values({ ...base, method: 'express', usa: -1 })).rejects.toThrow()
  await expect(db.insert(shippingRates).values({ ...base, method: 'express', ceilingG: 0 })).rejects.toThrow()
  expect(await db.select().from(shippingRates)).toEqual([])
})

// The admin editor's save (`replace`): one method's rows in one transaction, audited, refused
// when stale or unusable, and every process's prices dropped.

async function withAdmin() {
  const { db, pool } = await createTestDatabase()
  await seedDatabase(db)
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role)
     VALUES ('admin-1', 'Ana', 'ana@example.com', true, now(), now(), 'admin'),
            ('mod-1', 'Moe', 'moe@example.com', true, now(), now(), 'moderator')`,
  )
  const rates = createShippingRatesService({ db })
  const admin: Actor = { id: 'admin-1', role: 'admin' }
  const stored = async () =>
    db.select().from(shippingRates).orderBy(shippingRates.method, shippingRates.ceilingG)
  return { db, pool, rates, admin, stored, audit: () => db.select().from(auditLog) }
}

const priced = (ceilingG: number, price: number): RateRow => ({
  ceilingG,
  prices: {
    asia: price,
    europe_canada_mexico: price + 100,
    usa: price + 200,
    central_south_america: price + 300,
  },
})

test('an admin replaces one table: its rows in one transaction, the other table untouched, the change audited', async () => {
  const { db, rates, admin, stored, audit } = await withAdmin()
  const shown = await rates.snapshot(admin)
  const economicBefore = (await stored()).filter((row) => row.method === 'economic')
  const onInvalidate = vi.fn()
  rates.onInvalidate(onInvalidate)
  expect((await rates.get()).tables.express).toHaveLength(15)
  const [first, second, ...rest] = shown.tables.express
  if (!first || !second) throw new Error('seeded express table expected')
  const next = [priced(400, 2000), { ...first, prices: { ...first.prices, usa: 5000 } }, ...rest]
  const saved = await rates.replace(
    { db, actor: admin },
    { method: 'express', rows: next, version: shown.versions.express },
  )
  expect(saved.changed).toBe(true)
  expect(onInvalidate).toHaveBeenCalledOnce()
  // The cache was dropped: the calculators price with the new table at once.
  expect((await rates.get()).tables.express).toEqual(next)
  expect((await rates.snapshot(admin)).versions.express).toBe(saved.version)
  expect((await stored()).filter((row) => row.method === 'economic')).toEqual(economicBefore)
  const [record, ...others] = await audit()
  expect(others).toEqual([])
  expect(record).toMatchObject({
    actorEmail: 'ana@example.com',
    kind: 'rates.update',
    subjectType: 'shipping_rates',
    subjectId: 'express',
    before: { 500: first.prices, 1000: second.prices },
    after: { 400: priced(400, 2000).prices, 500: { ...first.prices, usa: 5000 } },
  })
})

test('a row kept as it was keeps what its prices rest on; a row staff set does not', async () => {
  const { db, rates, admin, stored } = await withAdmin()
  const shown = await rates.snapshot(admin)
  const [first, ...rest] = shown.tables.economic
  if (!first) throw new Error('seeded economic table expected')
  await rates.replace(
    { db, actor: admin },
    {
      method: 'economic',
      rows: [{ ...first, prices: { ...first.prices, central_south_america: 2500 } }, ...rest],
      version: shown.versions.economic,
    },
  )
  const economic = (await stored()).filter((row) => row.method === 'economic')
  expect(economic[0]?.assumption).toBeNull()
  expect(economic.slice(1).every((row) => row.assumption !== null)).toBe(true)
})

test('a stale table (changed since it was shown) is a conflict; an unusable one is invalid; nothing is written', async () => {
  const { db, rates, admin, stored, audit } = await withAdmin()
  const shown = await rates.snapshot(admin)
  const before = await stored()
  await expect(
    rates.replace(
      { db, actor: admin },
      { method: 'express', rows: shown.tables.express.slice(0, 3), version: shown.versions.express },
    ),
  ).rejects.toMatchObject({ code: 'invalid', details: { reason: 'ratesInvalid' } })
  await expect(
    rates.replace(
      { db, actor: admin },
      { method: 'express', rows: [...shown.tables.express].reverse(), version: shown.versions.express },
    ),
  ).rejects.toMatchObject({ code: 'invalid' })
  await expect(
    rates.replace(
      { db, actor: admin },
      { method: 'express', rows: [priced(10_000, 0)], version: shown.versions.express },
    ),
  ).rejects.toMatchObject({ code: 'invalid' })
  await expect(
    rates.replace(
      { db, actor: admin },
      { method: 'express', rows: [priced(10_000, 9000)], version: shown.versions.economic },
    ),
  ).rejects.toMatchObject({ code: 'conflict', details: { reason: 'ratesChanged' } })
  expect(await stored()).toEqual(before)
  expect(await audit()).toEqual([])
})

test('two admins confirming changes to one table at once: one is saved, the other is told', async () => {
  const { db, rates, admin, audit } = await withAdmin()
  const shown = await rates.snapshot(admin)
  const results = await Promise.allSettled(
    [9000, 9500].map((price) =>
      rates.replace(
        { db, actor: admin },
        { method: 'express', rows: [priced(10_000, price)], version: shown.versions.express },
      ),
    ),
  )
  expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
  expect(await audit()).toHaveLength(1)
})

test('moderators, customers and anonymous callers are refused, and nothing is written', async () => {
  const { db, rates, stored, audit } = await withAdmin()
  const shown = await rates.snapshot({ id: 'admin-1', role: 'admin' })
  const before = await stored()
  for (const actor of [
    { id: 'mod-1', role: 'moderator' as const },
    { id: 'u', role: 'user' as const },
    null,
  ]) {
    await expect(
      rates.replace(
        { db, actor },
        { method: 'express', rows: [priced(10_000, 1)], version: shown.versions.express },
      ),
    ).rejects.toMatchObject({ code: 'forbidden' })
  }
  expect(await stored()).toEqual(before)
  expect(await audit()).toEqual([])
})
