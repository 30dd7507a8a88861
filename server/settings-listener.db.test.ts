import { eq } from 'drizzle-orm'
import { expect, test, vi } from 'vitest'
import type { RateRow } from '#core/pricing/pricing.ts'
import { createShippingRatesService } from '#core/pricing/shipping-rates-service.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { createSettingsService } from '#core/settings/settings-service.ts'
import { settings as settingsTable } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { listenForSettingsChanges } from './settings-listener.ts'

const silent = { warn: () => undefined, debug: () => undefined }

test('a change made by one process reaches the cache of another through NOTIFY', async () => {
  const { db, url } = await createTestDatabase()
  const writer = createSettingsService({ db })
  const reader = createSettingsService({ db })
  expect((await reader.get()).serviceFeeJpy).toBe(500)

  const listener = listenForSettingsChanges({
    databaseUrl: url,
    onChange: () => reader.invalidate(),
    logger: silent,
  })
  try {
    // The listener connects asynchronously; keep changing until the reader sees a value.
    await vi.waitFor(
      async () => {
        await writer.update({ serviceFeeJpy: 650 })
        expect((await reader.get()).serviceFeeJpy).toBe(650)
      },
      { timeout: 10_000, interval: 200 },
    )
  } finally {
    await listener.close()
  }
  const [row] = await db.select().from(settingsTable).where(eq(settingsTable.key, 'serviceFeeJpy'))
  expect(row?.isDemo).toBe(false)
})

test('a saved table reaches another process’s prices through the settings channel', async () => {
  const { db, pool, url } = await createTestDatabase()
  await seedDatabase(db)
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role)
     VALUES ('admin-1', 'Ana', 'ana@example.com', true, now(), now(), 'admin')`,
  )
  const admin = { id: 'admin-1', role: 'admin' as const }
  const rates = createShippingRatesService({ db })
  const priced = (ceilingG: number, price: number): RateRow => ({
    ceilingG,
    prices: { asia: price, europe_canada_mexico: price, usa: price, central_south_america: price },
  })
  const elsewhere = createShippingRatesService({ db })
  expect((await elsewhere.get()).tables.express).toHaveLength(15)
  const listener = listenForSettingsChanges({
    databaseUrl: url,
    onChange: () => elsewhere.invalidate(),
    logger: silent,
  })
  try {
    // The listener connects asynchronously; keep saving until the other process sees a change.
    let price = 9000
    await vi.waitFor(
      async () => {
        const { versions } = await rates.snapshot({ id: 'admin-1', role: 'admin' })
        price += 1
        await rates.replace(
          { db, actor: admin },
          { method: 'express', rows: [priced(10_000, price)], version: versions.express },
        )
        expect((await elsewhere.get()).tables.express).toEqual([priced(10_000, price)])
      },
      { timeout: 10_000, interval: 200 },
    )
  } finally {
    await listener.close()
  }
})
