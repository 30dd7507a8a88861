import { expect, test } from 'vitest'
import { canReadAuditLog, changedPaths } from './audit-log.ts'
import { AuditQuerySchema } from './audit-query.ts'

test('changedPaths keeps only what changed, as flat paths, on each side', () => {
  expect(
    changedPaths(
      { fee: 500, yenRates: { USD: 0.0068, MXN: 0.13 }, company: { name: 'A', email: 'a@x.com' }, tags: [1] },
      { fee: 600, yenRates: { USD: 0.0068, MXN: 0.14 }, company: { name: 'A' }, tags: [1, 2], added: 'x' },
    ),
  ).toEqual({
    before: { fee: 500, 'yenRates.MXN': 0.13, 'company.email': 'a@x.com', tags: [1] },
    after: { fee: 600, 'yenRates.MXN': 0.14, tags: [1, 2], added: 'x' },
  })
  expect(changedPaths({ a: { b: 1 } }, { a: { b: 1 } })).toEqual({ before: {}, after: {} })
})

test('only admins read the audit log', () => {
  expect(canReadAuditLog({ id: 'a', role: 'admin' })).toBe(true)
  expect(canReadAuditLog({ id: 'm', role: 'moderator' })).toBe(false)
  expect(canReadAuditLog({ id: 'u', role: 'user' })).toBe(false)
  expect(canReadAuditLog(null)).toBe(false)
})

test('the page’s query string: filters and cursor as typed, anything unreadable is no filter', () => {
  expect(AuditQuerySchema.parse({})).toEqual({ actor: null, kind: null, after: null })
  expect(
    AuditQuerySchema.parse({ actor: ' ana@example.com ', kind: 'settings.update', after: '120' }),
  ).toEqual({
    actor: 'ana@example.com',
    kind: 'settings.update',
    after: 120,
  })
  expect(
    AuditQuerySchema.parse({ actor: 'x'.repeat(300), kind: "role.assign' OR 1=1", after: '-5' }),
  ).toEqual({ actor: null, kind: null, after: null })
  expect(AuditQuerySchema.parse({ after: '1e3' }).after).toBeNull()
  expect(AuditQuerySchema.parse({ after: '0' }).after).toBeNull()
  expect(AuditQuerySchema.parse({ after: '9'.repeat(40) }).after).toBeNull()
})
