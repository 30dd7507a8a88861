import { expect, test, vi } from 'vitest'
import { ZodError } from 'zod'
import { settings as settingsTable } from '#db/schema/index.ts'
import { seedDatabase } from '#db/seed.ts'
import { createTestDatabase } from '#tests/db.ts'
import { DEFAULT_SETTINGS } from './settings-schema.ts'
import { createSettingsService } from './settings-service.ts'

test('an empty database reads as the specification defaults', async () => {
  const { db } = await createTestDatabase()
  const settings = createSettingsService({ db })
  expect(await settings.get()).toEqual(DEFAULT_SETTINGS)
  expect(await settings.demoKeys()).toEqual([])
})

test('the seed stores every setting once, marks placeholders as demo and never overwrites', async () => {
  const { db } = await createTestDatabase()
  expect((await seedDatabase(db)).settings).toBe(Object.keys(DEFAULT_SETTINGS).length)
  const settings = createSettingsService({ db })
  await settings.update({ serviceFeeJpy: 700 })
  expect(await seedDatabase(db)).toEqual({ settings: 0, shippingRates: 0, stores: 0, reviews: 0 })
  settings.invalidate()
  expect((await settings.get()).serviceFeeJpy).toBe(700)
  expect((await settings.demoKeys()).sort()).toEqual(['bankTransfer', 'company', 'messaging'])
})

test('reads are cached until invalidated', async () => {
  const { db } = await createTestDatabase()
  const settings = createSettingsService({ db })
  expect((await settings.get()).taxRate).toBe(0.1)
  await db.insert(settingsTable).values({ key: 'taxRate', value: 0.08 })
  expect((await settings.get()).taxRate).toBe(0.1)
  const onInvalidate = vi.fn()
  settings.onInvalidate(onInvalidate)
  settings.invalidate()
  expect(onInvalidate).toHaveBeenCalledOnce()
  expect((await settings.get()).taxRate).toBe(0.08)
})

test('an update is validated as a whole: one bad value writes nothing', async () => {
  const { db } = await createTestDatabase()
  const settings = createSettingsService({ db })
  await expect(settings.update({ serviceFeeJpy: 900, taxRate: 3 })).rejects.toBeInstanceOf(ZodError)
  await expect(settings.update({ freeStorageDays: -1 })).rejects.toBeInstanceOf(ZodError)
  await expect(
    // A hostile value of the wrong type, as it could arrive from a form.
    settings.update({ yenRates: { USD: 'NaN' } } as never),
  ).rejects.toBeInstanceOf(ZodError)
  const rows = await db.select().from(settingsTable)
  expect(rows).toEqual([])
  expect(await settings.get()).toEqual(DEFAULT_SETTINGS)
})

test('a stored value that no longer fits its schema falls back to the default', async () => {
  const { db } = await createTestDatabase()
  await db.insert(settingsTable).values([
    { key: 'serviceFeeJpy', value: 'five hundred' },
    { key: 'freeStorageDays', value: 45 },
  ])
  const current = await createSettingsService({ db }).get()
  expect(current.serviceFeeJpy).toBe(DEFAULT_SETTINGS.serviceFeeJpy)
  expect(current.freeStorageDays).toBe(45)
})
