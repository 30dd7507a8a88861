import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { shippingRates } from '#db/schema/index.ts'
import { seedDatabase } from '#db/seed.ts'
import { seedRateRows } from '#db/seed-data/shipping-rates.ts'
import { createTestDatabase } from '#tests/db.ts'
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
  expect(await seedDatabase(db)).toEqual({ settings: 0, shippingRates: 0, stores: 0, reviews: 0 })
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
