import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createTestAuth, insertPasswordAccount, insertSession } from '#tests/support/accounts.ts'
import { refusal } from '#tests/support/refusal.ts'
import { disableUser, enableUser, getUserDetail, listUsers, signOutEverywhere } from './user-admin.ts'
import { USERS_PAGE_SIZE } from './user-list.ts'

// The admin panel's users: search (accents and case aside), role filter, orders and keyset pages;
// one user's page; sign-out everywhere, disable and enable, each audited; every role against
// every action; bad input.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const make = async (email: string, name: string, role: 'user' | 'admin' | 'moderator' = 'user') => {
    const account = await insertPasswordAccount(pool, { email, name, role })
    return { id: account.id, role } as Actor & { id: string }
  }
  const admin = await make('jefa@example.com', 'Jefa Admin', 'admin')
  const moderator = await make('mod@example.com', 'Mod Erador', 'moderator')
  const jose = await make('jose.perez@correo.mx', 'José Pérez')
  const ana = await make('ana@example.com', 'Ana Núñez')
  const audit = async () =>
    (await pool.query('SELECT kind, actor_id, subject_id, before, after FROM audit_log ORDER BY id')).rows
  return { db, pool, admin, moderator, jose, ana, make, audit }
}

test('search finds names whatever the accents and capitals, and e-mails by a part; role filters; staff read, customers do not', async () => {
  const { db, admin, moderator, jose, ana } = await setup()
  const emails = async (actor: Actor, query: Parameters<typeof listUsers>[1]) =>
    (await listUsers({ db, actor }, query)).rows.map((row) => row.email)
  expect(await emails(admin, { q: 'jose perez' })).toEqual(['jose.perez@correo.mx'])
  expect(await emails(moderator, { q: 'JOSÉ' })).toEqual(['jose.perez@correo.mx'])
  expect(await emails(admin, { q: 'nunez' })).toEqual(['ana@example.com'])
  expect(await emails(admin, { q: 'correo.mx' })).toEqual(['jose.perez@correo.mx'])
  // LIKE's wildcards are plain characters in a search.
  expect(await emails(admin, { q: '%' })).toEqual([])
  expect(await emails(admin, { q: '_' })).toEqual([])
  expect(await emails(admin, { role: 'moderator' })).toEqual(['mod@example.com'])
  expect((await emails(admin, { role: 'user', sort: 'name' })).sort()).toEqual(
    ['ana@example.com', 'jose.perez@correo.mx'].sort(),
  )
  // An unknown role or order is no filter and the default order.
  const all = await listUsers({ db, actor: admin }, { role: 'owner', sort: 'sideways' })
  expect(all).toMatchObject({ role: null, sort: 'newest' })
  expect(all.rows).toHaveLength(4)
  const row = all.rows.find((user) => user.id === jose.id)
  expect(row).toMatchObject({
    name: 'José Pérez',
    role: 'user',
    emailVerified: true,
    twoStep: false,
    disabled: false,
  })

  expect(await refusal(listUsers({ db, actor: null }, {}))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(listUsers({ db, actor: ana }, {}))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(getUserDetail({ db, actor: ana }, jose.id))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(listUsers({ db, actor: admin }, { q: 'x'.repeat(201) }))).toMatchObject({
    code: 'invalid',
    reason: 'userSearchTooLong',
  })
  for (const cursor of [
    'not-ours',
    Buffer.from('["yesterday","x"]').toString('base64url'),
    "'; drop table users; --",
  ]) {
    expect(await refusal(listUsers({ db, actor: admin }, { cursor }))).toMatchObject({
      code: 'invalid',
      reason: 'badCursor',
    })
  }
})

test('keyset pages walk every user once in each order', async () => {
  const { db, pool, admin } = await setup()
  // 60 more, some created in the same millisecond (the id breaks ties).
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role)
     SELECT 'bulk-' || n, 'Persona ' || lpad(n::text, 3, '0'), 'p' || n || '@example.com', false,
            '2026-01-01T00:00:00Z'::timestamptz + ((n / 3) || ' minutes')::interval, now(), 'user'
       FROM generate_series(1, 60) AS n`,
  )
  for (const sort of ['newest', 'oldest', 'name'] as const) {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: Awaited<ReturnType<typeof listUsers>> = await listUsers(
        { db, actor: admin },
        { sort, cursor },
      )
      expect(page.rows.length).toBeLessThanOrEqual(USERS_PAGE_SIZE)
      seen.push(...page.rows.map((row) => row.id))
      cursor = page.nextCursor
      pages++
    } while (cursor && pages < 10)
    expect(new Set(seen).size, sort).toBe(64)
    expect(seen).toHaveLength(64)
    if (sort === 'name') {
      const names = (await listUsers({ db, actor: admin }, { sort })).rows.map((row) =>
        row.name.toLowerCase(),
      )
      expect(names).toEqual([...names].sort())
    }
  }
})

test('an admin disables an account: its sessions end, it cannot sign in, it is audited; enabling lets it back in', async () => {
  const { db, pool, admin, jose, audit } = await setup()
  await insertSession(pool, jose.id)
  await insertSession(pool, jose.id)
  const { auth } = createTestAuth(db)
  const signIn = () =>
    auth.api.signInEmail({ body: { email: 'jose.perez@correo.mx', password: 'correct horse battery' } })

  expect(await disableUser({ db, actor: admin }, { userId: jose.id, reason: 'Chargeback fraud' })).toEqual({
    changed: true,
    sessionsEnded: 2,
  })
  // Twice: nothing more happens.
  expect(await disableUser({ db, actor: admin }, { userId: jose.id, reason: 'Again' })).toEqual({
    changed: false,
    sessionsEnded: 0,
  })
  expect(
    (await pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [jose.id])).rows[0].n,
  ).toBe(0)
  await expect(signIn()).rejects.toMatchObject({ statusCode: 403, body: { code: 'BANNED_USER' } })
  const detail = await getUserDetail({ db, actor: admin }, jose.id)
  expect(detail).toMatchObject({ disabled: true, disabledReason: 'Chargeback fraud', sessions: 0 })

  expect(await enableUser({ db, actor: admin }, { userId: jose.id })).toEqual({ changed: true })
  expect(await enableUser({ db, actor: admin }, { userId: jose.id })).toEqual({ changed: false })
  const signedIn = await signIn()
  expect(signedIn.user.email).toBe('jose.perez@correo.mx')

  expect(await signOutEverywhere({ db, actor: admin }, { userId: jose.id })).toEqual({ sessionsEnded: 1 })
  expect(await audit()).toEqual([
    {
      kind: 'user.disable',
      actor_id: admin.id,
      subject_id: jose.id,
      before: { disabled: false },
      after: { disabled: true, reason: 'Chargeback fraud', sessionsEnded: 2 },
    },
    {
      kind: 'user.enable',
      actor_id: admin.id,
      subject_id: jose.id,
      before: { disabled: true, reason: 'Chargeback fraud' },
      after: { disabled: false },
    },
    {
      kind: 'user.sign_out',
      actor_id: admin.id,
      subject_id: jose.id,
      before: {},
      after: { sessionsEnded: 1 },
    },
  ])
  // The user's page shows it, newest first.
  expect((await getUserDetail({ db, actor: admin }, jose.id)).history.map((entry) => entry.kind)).toEqual([
    'user.sign_out',
    'user.enable',
    'user.disable',
  ])
})

test('moderators and customers are refused every account action; an admin not on themselves; bad input writes nothing', async () => {
  const { db, pool, admin, moderator, jose, ana, audit } = await setup()
  await insertSession(pool, jose.id)
  for (const actor of [null, moderator, ana]) {
    const code = actor ? 'forbidden' : 'unauthorized'
    expect(await refusal(disableUser({ db, actor }, { userId: jose.id, reason: 'x' }))).toMatchObject({
      code,
    })
    expect(await refusal(enableUser({ db, actor }, { userId: jose.id }))).toMatchObject({ code })
    expect(await refusal(signOutEverywhere({ db, actor }, { userId: jose.id }))).toMatchObject({ code })
  }
  expect(
    await refusal(disableUser({ db, actor: moderator }, { userId: jose.id, reason: 'x' })),
  ).toMatchObject({
    reason: 'usersAdminsOnly',
  })
  expect(
    await refusal(disableUser({ db, actor: admin }, { userId: admin.id, reason: 'oops' })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'notOnYourself',
  })
  expect(await refusal(signOutEverywhere({ db, actor: admin }, { userId: admin.id }))).toMatchObject({
    reason: 'notOnYourself',
  })
  expect(await audit()).toEqual([])
  const before = await audit()
  for (const reason of ['', '   ', 'x'.repeat(501), 'bad\u0000byte']) {
    expect(await refusal(disableUser({ db, actor: admin }, { userId: jose.id, reason }))).toMatchObject({
      code: 'invalid',
    })
  }
  for (const userId of ['', 'nobody', '../../etc', 'x'.repeat(101)]) {
    expect(await refusal(disableUser({ db, actor: admin }, { userId, reason: 'x' }))).toMatchObject({
      code: 'not_found',
      reason: 'userNotFound',
    })
    expect(await refusal(getUserDetail({ db, actor: admin }, userId))).toMatchObject({ code: 'not_found' })
  }
  expect(await audit()).toEqual(before)
  expect((await pool.query('SELECT banned FROM users WHERE id = $1', [jose.id])).rows[0].banned).toBe(false)
})

test('the last admin who can sign in cannot be disabled', async () => {
  const { db, admin, make } = await setup()
  const other = await make('otra@example.com', 'Otra', 'admin')
  await disableUser({ db, actor: admin }, { userId: other.id, reason: 'Away' })
  const third = await make('tercera@example.com', 'Tercera', 'admin')
  // `third` disabling `admin` would leave only `third`: allowed. Then `admin` (disabled) is not
  // the last; but disabling `third` by anyone would leave no admin who can sign in.
  await disableUser({ db, actor: third }, { userId: admin.id, reason: 'Rotation' })
  await enableUser({ db, actor: third }, { userId: other.id })
  await disableUser({ db, actor: other }, { userId: third.id, reason: 'Rotation' })
  expect(await refusal(disableUser({ db, actor: third }, { userId: other.id, reason: 'x' }))).toMatchObject({
    code: 'conflict',
    reason: 'lastAdminDisable',
  })
})
