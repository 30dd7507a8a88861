import { eq } from 'drizzle-orm'
import { expect, test, vi } from 'vitest'
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
