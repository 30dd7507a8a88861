import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { auditLog, roleAssignments, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { assignRole, canAssignRoles } from './roles.ts'

async function withUsers() {
  const { db } = await createTestDatabase()
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: 'admin-1', name: 'Admin', email: 'admin@example.com', role: 'admin' },
    { ...base, id: 'user-1', name: 'User', email: 'user@example.com', role: 'user' },
    { ...base, id: 'mod-1', name: 'Moderator', email: 'mod@example.com', role: 'moderator' },
  ])
  return db
}

test('only admins may assign roles', () => {
  expect(canAssignRoles({ id: 'a', role: 'admin' })).toBe(true)
  expect(canAssignRoles({ id: 'm', role: 'moderator' })).toBe(false)
  expect(canAssignRoles({ id: 'u', role: 'user' })).toBe(false)
  expect(canAssignRoles(null)).toBe(false)
})

test('an admin sets a role; the change and who made it are recorded', async () => {
  const db = await withUsers()
  expect(
    await assignRole(
      { db, actor: { id: 'admin-1', role: 'admin' } },
      { userId: 'user-1', role: 'moderator' },
    ),
  ).toEqual({
    userId: 'user-1',
    role: 'moderator',
  })
  const [user] = await db.select({ role: users.role }).from(users).where(eq(users.id, 'user-1'))
  expect(user?.role).toBe('moderator')
  const [record] = await db.select().from(roleAssignments)
  expect(record).toMatchObject({ userId: 'user-1', role: 'moderator', assignedBy: 'admin-1' })
  expect(record?.assignedAt).toBeInstanceOf(Date)
  // And in the audit log, with old → new.
  expect(await db.select().from(auditLog)).toMatchObject([
    {
      actorId: 'admin-1',
      actorEmail: 'admin@example.com',
      kind: 'role.assign',
      subjectType: 'user',
      subjectId: 'user-1',
      before: { role: 'user' },
      after: { role: 'moderator' },
    },
  ])
})

test('users and moderators are refused, for others and for themselves, and nothing changes', async () => {
  const db = await withUsers()
  await expect(
    assignRole({ db, actor: { id: 'user-1', role: 'user' } }, { userId: 'user-1', role: 'admin' }),
  ).rejects.toMatchObject({ code: 'forbidden' })
  await expect(
    assignRole({ db, actor: { id: 'mod-1', role: 'moderator' } }, { userId: 'user-1', role: 'moderator' }),
  ).rejects.toMatchObject({
    code: 'forbidden',
  })
  await expect(assignRole({ db, actor: null }, { userId: 'user-1', role: 'admin' })).rejects.toMatchObject({
    code: 'forbidden',
  })
  expect(await db.select().from(roleAssignments)).toEqual([])
  expect(await db.select().from(auditLog)).toEqual([])
  const [user] = await db.select({ role: users.role }).from(users).where(eq(users.id, 'user-1'))
  expect(user?.role).toBe('user')
})

test('an unknown user is not found; the last admin cannot be demoted', async () => {
  const db = await withUsers()
  await expect(
    assignRole({ db, actor: { id: 'admin-1', role: 'admin' } }, { userId: 'ghost', role: 'user' }),
  ).rejects.toMatchObject({ code: 'not_found' })
  await expect(
    assignRole({ db, actor: { id: 'admin-1', role: 'admin' } }, { userId: 'admin-1', role: 'user' }),
  ).rejects.toMatchObject({
    code: 'conflict',
  })
  // Refused changes leave no record.
  expect(await db.select().from(auditLog)).toEqual([])
  await assignRole({ db, actor: { id: 'admin-1', role: 'admin' } }, { userId: 'mod-1', role: 'admin' })
  await expect(
    assignRole({ db, actor: { id: 'admin-1', role: 'admin' } }, { userId: 'admin-1', role: 'user' }),
  ).resolves.toMatchObject({ role: 'user' })
})
