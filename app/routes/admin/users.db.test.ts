import { expect, test } from 'vitest'
import { shownNotice } from '#app/lib/notice.server.ts'
import { formatMoney } from '#core/money/money.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  type routeArgs,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { middleware as staffMiddleware } from './staff-layout.tsx'
import * as userPage from './user.tsx'
import * as usersPage from './users.tsx'

// The users list and a user's page through the staff branch's middleware, for every role:
// anonymous → the login guard, a customer → the admin guard, moderators read, admins act.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const run = (request: Request, handler: (args: ReturnType<typeof routeArgs>) => unknown, params = {}) =>
    callRoute(services, staffMiddleware, request, handler, { params, context: { language: 'en' } })
  const people = {
    ana: await signedInCaller(pool, { email: 'ana@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const list = (search: string, cookie?: string) =>
    run(pageRequest(`/admin-dashboard/users${search}`, { cookie }), (args) => usersPage.loader(args as never))
  const changeRole = (fields: Record<string, string>, cookie?: string) =>
    run(formPost('/admin-dashboard/users', fields, { cookie }), (args) => usersPage.action(args as never))
  const detail = (id: string, cookie?: string) =>
    run(pageRequest(`/admin-dashboard/users/${id}`, { cookie }), (args) => userPage.loader(args as never), {
      id,
    })
  const act = (id: string, fields: Record<string, string>, cookie?: string) =>
    run(
      formPost(`/admin-dashboard/users/${id}`, fields, { cookie }),
      (args) => userPage.action(args as never),
      {
        id,
      },
    )
  const roleOf = async (id: string) =>
    (await pool.query('SELECT role FROM users WHERE id = $1', [id])).rows[0]?.role
  const auditCount = async () =>
    (await pool.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n as number
  return { people, list, changeRole, detail, act, roleOf, auditCount, pool }
}

test('anonymous visitors get the login guard, customers the admin guard, for both pages and every action; nothing written', async () => {
  const { people, list, changeRole, detail, act, roleOf, auditCount } = await setup()
  const target = people.ana.id
  expect(await list('')).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await detail(target)).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await changeRole({ userId: target, role: 'admin' })).toMatchObject({ status: 401 })
  expect(await act(target, { intent: 'disable', reason: 'x' })).toMatchObject({ status: 401 })
  const customer = people.ana.cookie
  expect(await list('', customer)).toMatchObject({ status: 403, data: { guard: 'admin', role: 'user' } })
  expect(await detail(target, customer)).toMatchObject({ status: 403 })
  expect(await changeRole({ userId: target, role: 'admin' }, customer)).toMatchObject({ status: 403 })
  expect(await act(target, { intent: 'sign_out' }, customer)).toMatchObject({ status: 403 })
  expect(await roleOf(target)).toBe('user')
  expect(await auditCount()).toBe(0)
})

test('a moderator reads the list and a user, with no forms; the role change and account actions answer "Permission denied"', async () => {
  const { people, list, changeRole, detail, act, roleOf, auditCount } = await setup()
  const cookie = people.moderator.cookie
  const page = await list('?q=ANA&role=user', cookie)
  expect(page).toMatchObject({ status: 200, data: { canAssign: false, q: 'ANA', role: 'user' } })
  expect((page.data as { rows: { email: string }[] }).rows.map((row) => row.email)).toEqual([
    'ana@example.com',
  ])
  expect(await detail(people.ana.id, cookie)).toMatchObject({
    status: 200,
    data: { canManage: false, user: { email: 'ana@example.com', role: 'user' } },
  })
  expect(await changeRole({ userId: people.ana.id, role: 'admin' }, cookie)).toMatchObject({
    status: 403,
    data: { denied: true, messageKey: 'errors.reasons.onlyAdminsAssignRoles' },
  })
  expect(await act(people.ana.id, { intent: 'disable', reason: 'x' }, cookie)).toMatchObject({
    status: 403,
    data: { messageKey: 'errors.reasons.usersAdminsOnly' },
  })
  expect(await roleOf(people.ana.id)).toBe('user')
  expect(await auditCount()).toBe(0)
})

test('an admin changes a role from the list (back to the same view with the toast); bad roles, the last admin and a long search are 4xx in words', async () => {
  const { people, list, changeRole, roleOf } = await setup()
  const cookie = people.admin.cookie
  const answer = await changeRole(
    { userId: people.ana.id, role: 'moderator', back: '/admin-dashboard/users?q=ana&sort=name' },
    cookie,
  )
  expect(answer.status).toBe(302)
  // Back to the same view, with the spec's "Role assigned" toast naming the role.
  expect(redirectOf(answer)).toEqual({
    location: '/admin-dashboard/users?q=ana&sort=name',
    notice: { name: 'roleAssigned', params: { role: 'moderator' } },
  })
  expect(shownNotice(redirectOf(answer).notice, 'en')).toEqual({
    title: 'Role assigned',
    text: 'User role updated to moderator',
    failure: false,
  })
  expect(shownNotice(redirectOf(answer).notice, 'es')?.text).toBe('Rol del usuario actualizado a moderador')
  expect(await roleOf(people.ana.id)).toBe('moderator')
  // The list shows the new role at once.
  const after = await list('?q=ana', cookie)
  expect(after.data).toMatchObject({ rows: [{ email: 'ana@example.com', role: 'moderator' }] })
  // Somewhere else than the list: back to the list.
  const offsite = await changeRole(
    { userId: people.ana.id, role: 'user', back: 'https://evil.example/' },
    cookie,
  )
  expect(offsite.headers.get('location')).toBe('/admin-dashboard/users')

  for (const role of ['owner', '', '<script>']) {
    expect(await changeRole({ userId: people.ana.id, role }, cookie)).toMatchObject({
      status: 400,
      data: { denied: false, messageKey: 'errors.reasons.invalidRoleInput' },
    })
  }
  expect(await changeRole({ userId: 'nobody-here', role: 'admin' }, cookie)).toMatchObject({
    status: 404,
    data: { messageKey: 'errors.reasons.userNotFound' },
  })
  expect(await changeRole({ userId: people.admin.id, role: 'user' }, cookie)).toMatchObject({
    status: 409,
    data: { messageKey: 'errors.reasons.lastAdmin' },
  })
  expect(await list(`?q=${'x'.repeat(201)}`, cookie)).toMatchObject({
    status: 400,
    data: { problem: 'errors.reasons.userSearchTooLong', rows: [] },
  })
})

test('an admin signs a user out everywhere and disables then enables the account from its page; a disable without a reason is a 400', async () => {
  const { people, detail, act, auditCount } = await setup()
  const cookie = people.admin.cookie
  const id = people.ana.id
  expect((await detail(id, cookie)).data).toMatchObject({
    canManage: true,
    user: { sessions: 1, disabled: false },
  })
  expect(await act(id, { intent: 'disable', reason: '  ' }, cookie)).toMatchObject({
    status: 400,
    data: { intent: 'disable', fieldError: 'reasonRequired' },
  })
  expect(await act(id, { intent: 'nonsense' }, cookie)).toMatchObject({ status: 400 })
  expect(await auditCount()).toBe(0)
  for (const [fields, done] of [
    [{ intent: 'sign_out' }, 'userSignedOut'],
    [{ intent: 'disable', reason: 'Fraud' }, 'userDisabled'],
    [{ intent: 'enable' }, 'userEnabled'],
  ] as const) {
    const answer = await act(id, fields, cookie)
    expect(answer.status).toBe(302)
    expect(redirectOf(answer)).toEqual({ location: `/admin-dashboard/users/${id}`, notice: { name: done } })
  }
  expect((await detail(id, cookie)).data).toMatchObject({
    user: { sessions: 0, disabled: false },
    history: [{ kind: 'user.enable' }, { kind: 'user.disable' }, { kind: 'user.sign_out' }],
  })
  // Not on their own account.
  expect((await detail(people.admin.id, cookie)).data).toMatchObject({ canManage: false })
  expect(await act(people.admin.id, { intent: 'sign_out' }, cookie)).toMatchObject({
    status: 409,
    data: { messageKey: 'errors.reasons.notOnYourself' },
  })
})

test("a user's page shows their whole picture: totals in yen, requests, shipments, items stored, addresses, payments and refunds, each with its link", async () => {
  const { people, detail, pool } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: people.ana.id })
  const payment = await pool.query<{ id: string }>(
    `INSERT INTO payments (invoice_id, provider, status, requested_jpy, amount, currency, settled_at)
     VALUES ($1, 'manual', 'succeeded', $2, $2, 'JPY', now()) RETURNING id`,
    [quoted.invoiceId, quoted.totalJpy],
  )
  await pool.query(
    `INSERT INTO refunds (payment_id, amount_jpy, status, reason) VALUES ($1, 800, 'due', 'overpayment'), ($1, 800, 'done', 'overpayment')`,
    [payment.rows[0]?.id],
  )
  await pool.query(
    `INSERT INTO addresses (user_id, full_name, street, city, region, postal_code, country, phone, is_default)
     VALUES ($1, 'Ana', 'Av. Larco 123', 'Lima', 'Lima', '15074', 'PE', '+51 1 234 5678', true)`,
    [people.ana.id],
  )
  const answer = await detail(people.ana.id, people.moderator.cookie)
  expect(answer.status).toBe(200)
  expect(quoted.totalJpy).toBe(7400)
  expect(answer.data).toMatchObject({
    picture: {
      totals: {
        paid: formatMoney(7400, 'JPY', 'en'),
        refunded: formatMoney(800, 'JPY', 'en'),
        requests: 1,
        shipments: 0,
        storedItems: 0,
      },
      requests: {
        total: 1,
        rows: [{ id: quoted.requestId, number: quoted.requestNumber, status: 'quoted' }],
      },
      shipments: { total: 0, rows: [] },
      storedItems: { total: 0, rows: [] },
      addresses: { total: 1, rows: [{ city: 'Lima', isDefault: true }] },
      money: { total: 3 },
    },
  })
  const money = (answer.data as { picture: { money: { rows: Record<string, string>[] } } }).picture.money.rows
  expect(
    money.map((row) => [row.kind, row.invoiceNumber, row.amount, row.provider, row.status]).sort(),
  ).toEqual(
    [
      ['payment', quoted.invoiceNumber, formatMoney(7400, 'JPY', 'en'), 'manual', 'succeeded'],
      ['refund', quoted.invoiceNumber, formatMoney(800, 'JPY', 'en'), 'manual', 'due'],
      ['refund', quoted.invoiceNumber, formatMoney(800, 'JPY', 'en'), 'manual', 'done'],
    ].sort(),
  )
  for (const row of money) expect(row.dateLabel).toMatch(/\d{4}/)
  // Someone with nothing: empty lists and zero totals, written in yen.
  expect((await detail(people.moderator.id, people.admin.cookie)).data).toMatchObject({
    picture: { totals: { paid: formatMoney(0, 'JPY', 'en'), requests: 0 }, money: { total: 0, rows: [] } },
  })
})
