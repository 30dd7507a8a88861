import { expect, test } from 'vitest'
import { auditLog } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { AUDIT_PAGE_SIZE, listAuditActors, listAuditLog, recordAudit } from './audit-log.ts'

async function withStaff() {
  const { db, pool } = await createTestDatabase()
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role)
     VALUES ('admin-1', 'Ana', 'ana@example.com', true, now(), now(), 'admin'),
            ('admin-2', 'Beto', 'beto@example.com', true, now(), now(), 'admin'),
            ('user-1', 'Carla', 'carla@example.com', true, now(), now(), 'user')`,
  )
  const admin = { db, actor: { id: 'admin-1', role: 'admin' as const } }
  return { db, pool, admin }
}

const NO_FILTER = { actor: null, kind: null, after: null }

test('the audit log cannot be edited, deleted or emptied, not even by SQL', async () => {
  const { db, pool } = await withStaff()
  await recordAudit(db, {
    actorId: 'admin-1',
    kind: 'settings.update',
    subject: { type: 'settings' },
    before: { serviceFeeJpy: 500 },
    after: { serviceFeeJpy: 600 },
  })
  await expect(pool.query(`UPDATE audit_log SET after = '{}'`)).rejects.toThrow(/append-only: UPDATE refused/)
  await expect(pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE refused/)
  await expect(pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/)
  expect(await db.select().from(auditLog)).toMatchObject([{ after: { serviceFeeJpy: 600 } }])
  // Kinds and subjects are names, not free text.
  await expect(
    pool.query(`INSERT INTO audit_log (kind, subject_type) VALUES ('<script>', 'settings')`),
  ).rejects.toThrow(/audit_log_kind_check/)
})

test('a record keeps who acted after their account is deleted; a deleted subject reads as gone', async () => {
  const { db, pool, admin } = await withStaff()
  await recordAudit(db, {
    actorId: 'admin-2',
    kind: 'role.assign',
    subject: { type: 'user', id: 'user-1' },
    before: { role: 'user' },
    after: { role: 'moderator' },
  })
  expect((await listAuditLog(admin, NO_FILTER)).records[0]).toMatchObject({
    actorEmail: 'beto@example.com',
    subjectEmail: 'carla@example.com',
  })
  await pool.query(`DELETE FROM users WHERE id IN ('admin-2', 'user-1')`)
  expect((await listAuditLog(admin, NO_FILTER)).records[0]).toMatchObject({
    actorEmail: 'beto@example.com',
    subjectId: 'user-1',
    subjectEmail: null,
    before: { role: 'user' },
    after: { role: 'moderator' },
  })
})

test('newest first, a page at a time (keyset), filtered by person and kind', async () => {
  const { db, admin } = await withStaff()
  const total = AUDIT_PAGE_SIZE * 2 + 5
  for (let index = 0; index < total; index++) {
    await recordAudit(db, {
      actorId: index % 2 === 0 ? 'admin-1' : 'admin-2',
      kind: index % 3 === 0 ? 'rates.update' : 'settings.update',
      subject: { type: 'settings' },
      before: { n: index - 1 },
      after: { n: index },
    })
  }
  const seen: number[] = []
  let after: number | null = null
  let pages = 0
  do {
    const page = await listAuditLog(admin, { ...NO_FILTER, after })
    seen.push(...page.records.map((record) => record.after.n as number))
    after = page.nextCursor
    pages += 1
  } while (after !== null)
  expect(pages).toBe(3)
  expect(seen).toEqual(Array.from({ length: total }, (_, index) => total - 1 - index))

  const anas = await listAuditLog(admin, { ...NO_FILTER, actor: 'ana@example.com', kind: 'rates.update' })
  expect(anas.records.length).toBeGreaterThan(0)
  expect(
    anas.records.every((record) => record.actorEmail === 'ana@example.com' && record.kind === 'rates.update'),
  ).toBe(true)
  expect(anas.records.map((record) => record.after.n)).toEqual(
    Array.from({ length: total }, (_, index) => total - 1 - index).filter((n) => n % 2 === 0 && n % 3 === 0),
  )
  expect((await listAuditLog(admin, { ...NO_FILTER, actor: 'nobody@example.com' })).records).toEqual([])
  expect(await listAuditActors(admin)).toEqual(['ana@example.com', 'beto@example.com'])
})

test('only admins read the log', async () => {
  const { db } = await withStaff()
  for (const actor of [
    { id: 'm', role: 'moderator' as const },
    { id: 'user-1', role: 'user' as const },
    null,
  ]) {
    await expect(listAuditLog({ db, actor }, NO_FILTER)).rejects.toMatchObject({ code: 'forbidden' })
    await expect(listAuditActors({ db, actor })).rejects.toMatchObject({ code: 'forbidden' })
  }
})
