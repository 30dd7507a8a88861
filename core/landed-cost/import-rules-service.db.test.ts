import { expect, test, vi } from 'vitest'
import { SEED_IMPORT_RULES, SEED_METHOD_RULES } from '#core/seed/data/import-rules.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { auditLog, destinationMethods, importRules } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { type ImportRule, ruleInEffect } from './import-rules.ts'
import { createImportRulesService } from './import-rules-service.ts'

// The import rules as stored (issue 30): seeded once, read per day as the estimates read them,
// written by admins only (a version added, a method set), each write audited in its transaction
// and every process's caches dropped.

async function withAdmin({ now = () => new Date('2026-11-27T10:00:00Z') } = {}) {
  const { db, pool } = await createTestDatabase()
  await seedDatabase(db)
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role)
     VALUES ('admin-1', 'Ana', 'ana@example.com', true, now(), now(), 'admin'),
            ('mod-1', 'Moe', 'moe@example.com', true, now(), now(), 'moderator'),
            ('user-1', 'Uma', 'uma@example.com', true, now(), now(), 'user')`,
  )
  const service = createImportRulesService({ db, now })
  const admin: Actor = { id: 'admin-1', role: 'admin' }
  const state = async () => ({
    rules: await db.select().from(importRules),
    methods: await db.select().from(destinationMethods),
    audit: await db.select().from(auditLog),
  })
  return { db, service, admin, state }
}

const chile = () => {
  const seed = SEED_IMPORT_RULES.find((candidate) => candidate.country === 'CL')
  if (!seed) throw new Error('no seeded rule for Chile')
  return structuredClone(seed.rule) as ImportRule
}

test('the seed: every rule and method row written once, read back as seeded, not again on a restart', async () => {
  const { db, service } = await withAdmin()
  const { versions, blocks } = await service.all()
  expect(versions).toHaveLength(SEED_IMPORT_RULES.length)
  expect(blocks).toHaveLength(SEED_METHOD_RULES.length)
  for (const seed of SEED_IMPORT_RULES)
    expect(
      versions.find(
        (version) => version.country === seed.country && version.effectiveFrom === seed.effectiveFrom,
      )?.rule,
    ).toEqual(seed.rule)
  const again = await seedDatabase(db)
  expect(again).toMatchObject({ importRules: 0 })
  expect((await service.all()).versions).toHaveLength(SEED_IMPORT_RULES.length)
})

test('inEffect(day): the latest version on or before the day, as ruleInEffect reads it; methods dated in the future wait', async () => {
  const { service } = await withAdmin()
  const { versions } = await service.all()
  const us = versions.filter((version) => version.country === 'US')
  for (const day of ['2026-02-23', '2026-02-24', '2026-07-24', '2026-07-25', '2027-01-01']) {
    const rules = await service.inEffect(day)
    expect(rules.day).toBe(day)
    expect(rules.rules.US?.id ?? null).toBe(ruleInEffect(us, day)?.id ?? null)
  }
  expect((await service.inEffect('2026-03-01')).rules.US?.rule.bands[0]?.dutyBp).toBe(1000)
  expect((await service.inEffect('2026-08-01')).rules.US?.rule.bands[0]?.dutyBp).toBe(0)
  // The service's clock says which day "today" is.
  expect((await service.inEffect()).day).toBe('2026-11-27')
  // Japan Post's stop for the USA took effect on 27 August 2025.
  expect((await service.inEffect('2025-08-26')).methods.US).toBeUndefined()
  expect((await service.inEffect('2025-08-27')).methods.US?.economic).toMatchObject({ available: false })
})

test('addVersion: audited in its transaction, caches dropped, in effect from its day; the old version kept', async () => {
  const { service, admin, state, db } = await withAdmin()
  const invalidated = vi.fn()
  service.onInvalidate(invalidated)
  const rule = chile()
  rule.bands[0] = { ...rule.bands[0], vatBp: 2000 } as ImportRule['bands'][number]
  const before = (await service.inEffect()).rules.CL
  const { id } = await service.addVersion(
    { db, actor: admin },
    {
      country: 'CL',
      effectiveFrom: '2026-11-28',
      rule,
    },
  )
  expect(invalidated).toHaveBeenCalledTimes(1)
  expect((await service.inEffect()).rules.CL?.id).toBe(before?.id)
  expect((await service.inEffect('2026-11-28')).rules.CL).toMatchObject({ id, rule })
  const { rules, audit } = await state()
  expect(rules.filter((row) => row.country === 'CL')).toHaveLength(2)
  expect(audit).toEqual([
    expect.objectContaining({
      kind: 'import_rule.add',
      actorId: 'admin-1',
      subjectId: 'CL',
      after: expect.objectContaining({ effectiveFrom: '2026-11-28', 'bands.0.vatBp': 2000, taxName: 'IVA' }),
    }),
  ])
  const history = await service.history(admin)
  expect(history.versions.filter((version) => version.country === 'CL')).toEqual([
    expect.objectContaining({ id, isSeed: false, createdBy: 'ana@example.com', effectiveFrom: '2026-11-28' }),
    expect.objectContaining({ isSeed: true, createdBy: null }),
  ])
})

test('setMethod: a block saved, changed and removed (available with no note), each audited', async () => {
  const { service, admin, state, db } = await withAdmin()
  const context = { db, actor: admin }
  const input = {
    country: 'CL',
    method: 'express' as const,
    available: false,
    note: { es: 'Sin vuelos', en: 'No flights' },
    source: 'https://example.org/notice',
    effectiveFrom: '2026-11-01',
  }
  await service.setMethod(context, input)
  expect((await service.inEffect()).methods.CL?.express).toMatchObject({ available: false })
  await service.setMethod(context, {
    ...input,
    available: true,
    note: { es: '', en: '' },
    effectiveFrom: '2026-11-20',
  })
  expect((await service.inEffect()).methods.CL).toBeUndefined()
  const { methods, audit } = await state()
  expect(methods.filter((row) => row.country === 'CL')).toEqual([])
  expect(audit.map((record) => [record.kind, record.subjectId, record.before, record.after])).toEqual([
    [
      'destination.methods',
      'CL:express',
      { available: true },
      { available: false, effectiveFrom: '2026-11-01' },
    ],
    [
      'destination.methods',
      'CL:express',
      { available: false, effectiveFrom: '2026-11-01' },
      { available: true, effectiveFrom: '2026-11-20' },
    ],
  ])
})

test('non-admins are refused and nothing is written; an unusable rule is refused too', async () => {
  const { service, state, db } = await withAdmin()
  const before = await state()
  const method = {
    country: 'CL',
    method: 'economic' as const,
    available: false,
    note: { es: 'x', en: 'x' },
    source: '',
    effectiveFrom: '2026-11-01',
  }
  for (const actor of [null, { id: 'mod-1', role: 'moderator' }, { id: 'user-1', role: 'user' }] as const) {
    const refused = (error: unknown) =>
      isAppError(error) && ['forbidden', 'unauthorized'].includes(error.code)
    await expect(
      service.addVersion({ db, actor }, { country: 'CL', effectiveFrom: '2026-12-01', rule: chile() }),
    ).rejects.toSatisfy(refused)
    await expect(service.setMethod({ db, actor }, method)).rejects.toSatisfy(refused)
    await expect(service.history(actor)).rejects.toSatisfy(refused)
  }
  const admin: Actor = { id: 'admin-1', role: 'admin' }
  const broken = { ...chile(), bands: [] }
  await expect(
    service.addVersion({ db, actor: admin }, { country: 'CL', effectiveFrom: '2026-12-01', rule: broken }),
  ).rejects.toSatisfy((error) => isAppError(error, 'invalid'))
  await expect(
    service.addVersion(
      { db, actor: admin },
      { country: 'chile', effectiveFrom: '2026-12-01', rule: chile() },
    ),
  ).rejects.toSatisfy((error) => isAppError(error, 'invalid'))
  expect(await state()).toEqual(before)
})
