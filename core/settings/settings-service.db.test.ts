import { eq } from 'drizzle-orm'
import { expect, test, vi } from 'vitest'
import { ZodError } from 'zod'
import { seedDatabase } from '#core/seed/seed-database.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { auditLog, settings as settingsTable } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { DEFAULT_SETTINGS, type Settings } from './settings-schema.ts'
import { createSettingsService, settingsVersion } from './settings-service.ts'

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
  expect(await seedDatabase(db)).toEqual({
    importRules: 0,
    settings: 0,
    shippingRates: 0,
    stores: 0,
    reviews: 0,
  })
  settings.invalidate()
  expect((await settings.get()).serviceFeeJpy).toBe(700)
  expect((await settings.demoKeys()).sort()).toEqual(['bankTransfer', 'company', 'messaging'])
})

test('placeholders seeded before they were bilingual follow the defaults; saved values and old texts stay (ADR 038)', async () => {
  const { db } = await createTestDatabase()
  const oldCompany = { ...DEFAULT_SETTINGS.company, address: 'Osaka, Japan' }
  const oldBank = {
    ...DEFAULT_SETTINGS.bankTransfer,
    branch: 'Osaka Main Branch',
    accountType: 'Futsu (ordinary)',
  }
  await db.insert(settingsTable).values([
    { key: 'company', value: oldCompany, isDemo: true },
    // Staff saved this one: theirs, never replaced, and its one text reads in both languages.
    { key: 'bankTransfer', value: oldBank, isDemo: false },
  ])
  await seedDatabase(db)
  const settings = createSettingsService({ db })
  const values = await settings.get()
  expect(values.company.address).toEqual({ es: 'Osaka, Japón', en: 'Osaka, Japan' })
  expect(values.bankTransfer.branch).toEqual({ es: 'Osaka Main Branch', en: 'Osaka Main Branch' })
  expect((await settings.demoKeys()).sort()).toEqual(['company', 'messaging'])
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

// The admin page's save (`save`): checked as a whole, one transaction with its audit record,
// refused when another save came first.

async function withAdmin() {
  const { db, pool } = await createTestDatabase()
  await seedDatabase(db)
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role)
     VALUES ('admin-1', 'Ana', 'ana@example.com', true, now(), now(), 'admin'),
            ('admin-2', 'Beto', 'beto@example.com', true, now(), now(), 'admin'),
            ('mod-1', 'Moe', 'moe@example.com', true, now(), now(), 'moderator')`,
  )
  const settings = createSettingsService({ db })
  const admin: Actor = { id: 'admin-1', role: 'admin' }
  const storedRows = async () =>
    (await db.select({ key: settingsTable.key, value: settingsTable.value }).from(settingsTable)).sort(
      (a, b) => a.key.localeCompare(b.key),
    )
  return { db, pool, settings, admin, storedRows, audit: () => db.select().from(auditLog) }
}

const changed = (values: Settings, patch: Partial<Settings>): Settings => ({ ...values, ...patch })

test('an admin’s save writes the keys that changed in one transaction, with who, when and old → new', async () => {
  const { db, settings, admin, audit } = await withAdmin()
  const shown = await settings.snapshot(admin)
  const onInvalidate = vi.fn()
  settings.onInvalidate(onInvalidate)
  const next = changed(shown.values, {
    serviceFeeJpy: 650,
    yenRates: { ...shown.values.yenRates, USD: 0.007 },
    company: { ...shown.values.company, name: 'Tienda Sakura' },
  })
  const saved = await settings.save({ db, actor: admin }, { values: next, version: shown.version })
  expect(saved).toEqual({
    values: next,
    version: settingsVersion(next),
    changed: ['serviceFeeJpy', 'yenRates', 'company'],
  })
  expect(onInvalidate).toHaveBeenCalledOnce()
  expect((await settings.get()).serviceFeeJpy).toBe(650)
  // The company is no longer the demo placeholder; the bank details (untouched) still are.
  expect((await settings.demoKeys()).sort()).toEqual(['bankTransfer', 'messaging'])
  const records = await audit()
  expect(records).toHaveLength(1)
  expect(records[0]).toMatchObject({
    actorId: 'admin-1',
    actorEmail: 'ana@example.com',
    kind: 'settings.update',
    subjectType: 'settings',
    subjectId: null,
    before: { serviceFeeJpy: 500, 'yenRates.USD': 0.0068, 'company.name': 'Demo Proxy Shopping Japan' },
    after: { serviceFeeJpy: 650, 'yenRates.USD': 0.007, 'company.name': 'Tienda Sakura' },
    createdAt: expect.any(Date),
  })
  // The snapshot after the save carries the new version.
  expect((await settings.snapshot(admin)).version).toBe(saved.version)
  const [fee] = await db.select().from(settingsTable).where(eq(settingsTable.key, 'serviceFeeJpy'))
  expect(fee).toMatchObject({ value: 650, isDemo: false })
})

test('a save the form did not change writes nothing and records nothing', async () => {
  const { db, settings, admin, audit, storedRows } = await withAdmin()
  const before = await storedRows()
  const shown = await settings.snapshot(admin)
  expect(
    await settings.save({ db, actor: admin }, { values: shown.values, version: shown.version }),
  ).toMatchObject({
    changed: [],
  })
  expect(await audit()).toEqual([])
  expect(await storedRows()).toEqual(before)
})

test('a stale save (another admin saved since the form was shown) is a conflict, and nothing is written', async () => {
  const { db, settings, admin, audit, storedRows } = await withAdmin()
  const shown = await settings.snapshot(admin)
  await settings.save(
    { db, actor: { id: 'admin-2', role: 'admin' } },
    { values: changed(shown.values, { taxRate: 0.08 }), version: shown.version },
  )
  const afterFirst = await storedRows()
  await expect(
    settings.save(
      { db, actor: admin },
      { values: changed(shown.values, { serviceFeeJpy: 900 }), version: shown.version },
    ),
  ).rejects.toMatchObject({ code: 'conflict', details: { reason: 'settingsChanged' } })
  await expect(
    settings.save(
      { db, actor: admin },
      { values: changed(shown.values, { serviceFeeJpy: 900 }), version: '' },
    ),
  ).rejects.toMatchObject({ code: 'conflict' })
  expect(await storedRows()).toEqual(afterFirst)
  expect((await audit()).map((record) => record.actorId)).toEqual(['admin-2'])
})

test('two admins saving the same form at once: exactly one save wins, the other is told', async () => {
  const { db, settings, audit } = await withAdmin()
  const shown = await settings.snapshot({ id: 'admin-1', role: 'admin' })
  const results = await Promise.allSettled(
    [700, 800, 900].map((fee, index) =>
      settings.save(
        { db, actor: { id: index === 0 ? 'admin-1' : 'admin-2', role: 'admin' } },
        { values: changed(shown.values, { serviceFeeJpy: fee }), version: shown.version },
      ),
    ),
  )
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
  expect(
    results.filter((result) => result.status === 'rejected').map((result) => result.reason.code),
  ).toEqual(['conflict', 'conflict'])
  expect(await audit()).toHaveLength(1)
})

test('moderators, customers and anonymous callers are refused, and nothing is written', async () => {
  const { db, settings, audit, storedRows } = await withAdmin()
  const before = await storedRows()
  const shown = await settings.snapshot({ id: 'admin-1', role: 'admin' })
  const input = { values: changed(shown.values, { serviceFeeJpy: 1 }), version: shown.version }
  for (const actor of [
    { id: 'mod-1', role: 'moderator' as const },
    { id: 'u', role: 'user' as const },
    null,
  ]) {
    await expect(settings.save({ db, actor }, input)).rejects.toMatchObject({
      code: 'forbidden',
      details: { reason: 'adminsOnly' },
    })
  }
  expect(await storedRows()).toEqual(before)
  expect(await audit()).toEqual([])
})

test('values that would break something are refused as a whole, even past the form', async () => {
  const { db, settings, admin, audit, storedRows } = await withAdmin()
  const before = await storedRows()
  const shown = await settings.snapshot(admin)
  for (const patch of [
    { serviceFeeJpy: -1 },
    { taxRate: 1.5 },
    { yenRates: { USD: 0, MXN: 0.13, CLP: 6.54 } },
    { company: { ...shown.values.company, name: 'x'.repeat(500) } },
  ] as Partial<Settings>[]) {
    await expect(
      settings.save(
        { db, actor: admin },
        { values: changed(shown.values, { serviceFeeJpy: 800, ...patch }), version: shown.version },
      ),
    ).rejects.toMatchObject({ code: 'invalid', details: { reason: 'settingsInvalid' } })
  }
  expect(await storedRows()).toEqual(before)
  expect(await audit()).toEqual([])
})

test('the change and its audit record commit together: if the record cannot be written, neither is', async () => {
  const { db, pool, settings, admin, storedRows } = await withAdmin()
  const before = await storedRows()
  await pool.query(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit unavailable'; END; $$`)
  await pool.query(
    'CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()',
  )
  const shown = await settings.snapshot(admin)
  await expect(
    settings.save(
      { db, actor: admin },
      { values: changed(shown.values, { serviceFeeJpy: 777 }), version: shown.version },
    ),
  ).rejects.toMatchObject({ cause: expect.objectContaining({ message: 'audit unavailable' }) })
  expect(await storedRows()).toEqual(before)
  expect((await settings.get()).serviceFeeJpy).toBe(500)
})

test('bank details stored before the instructions existed are kept; the instructions read as the default', async () => {
  const { db } = await createTestDatabase()
  const { instructions: _, ...older } = { ...DEFAULT_SETTINGS.bankTransfer, bankName: 'Banco Real' }
  await db.insert(settingsTable).values({ key: 'bankTransfer', value: older })
  const current = await createSettingsService({ db }).get()
  expect(current.bankTransfer).toEqual({
    ...older,
    instructions: DEFAULT_SETTINGS.bankTransfer.instructions,
  })
  expect(current.storageFeePerDayJpy).toBe(100)
})
