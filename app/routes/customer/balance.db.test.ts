import { expect, test } from 'vitest'
import { adjustBalance } from '#core/balance/balance-service.ts'
import { formatMoney } from '#core/money/money.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import {
  callFileRoute,
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import * as staffRequestPage from '../admin/request.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import * as userPage from '../admin/user.tsx'
import * as balancePage from './balance.tsx'
import * as balanceCsv from './balance-csv.ts'
import * as customerLayout from './layout.tsx'
import * as moneyPage from './payments.tsx'
import * as requestPage from './request.tsx'

// The balance through the pages (docs/decisions/050), for every role: the customer's statement
// and its CSV (their own only), paying a quote from the balance on the request page with bad
// amounts refused, and the staff user page where only admins record top-ups and adjust.

const yen = (amount: number, language: 'en' | 'es' = 'en') => formatMoney(amount, 'JPY', language)

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const orders = await createOrderTestDeps(db, pool)
  const people = {
    ana: await signedInCaller(pool, { email: 'ana@example.com' }),
    bruno: await signedInCaller(pool, { email: 'bruno@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const page = (cookie?: string, language: 'en' | 'es' = 'en') =>
    callRoute(
      services,
      customerLayout.middleware,
      pageRequest('/user-dashboard/balance', { cookie }),
      (args) => balancePage.loader(args as never),
      { context: { language } },
    )
  const csv = (cookie?: string, language: 'en' | 'es' = 'en') => {
    const request = pageRequest('/user-dashboard/balance.csv', { cookie })
    request.headers.set('accept', 'text/html,*/*;q=0.8')
    return callFileRoute(services, customerLayout, balanceCsv, request, { context: { language } })
  }
  const staffAct = (id: string, fields: Record<string, string>, cookie?: string) =>
    callRoute(
      services,
      staffMiddleware,
      formPost(`/admin-dashboard/users/${id}`, fields, { cookie }),
      (args) => userPage.action(args as never),
      { params: { id }, context: { language: 'en' } },
    )
  const staffPage = (id: string, cookie?: string) =>
    callRoute(
      services,
      staffMiddleware,
      pageRequest(`/admin-dashboard/users/${id}`, { cookie }),
      (args) => userPage.loader(args as never),
      { params: { id }, context: { language: 'en' } },
    )
  const payOnRequest = (requestId: string, fields: Record<string, string>, cookie?: string) =>
    callRoute(
      services,
      customerLayout.middleware,
      formPost(`/user-dashboard/requests/${requestId}`, { intent: 'pay_balance', ...fields }, { cookie }),
      (args) => requestPage.action(args as never),
      { params: { id: requestId }, context: { language: 'en' } },
    )
  const balanceRow = async (userId: string) =>
    Number(
      (await pool.query('SELECT balance_jpy FROM balance_accounts WHERE user_id = $1', [userId])).rows[0]
        ?.balance_jpy ?? 0,
    )
  return { services, pool, orders, people, page, csv, staffAct, staffPage, payOnRequest, balanceRow }
}

test('top-ups on the staff user page: anonymous and customers refused by the guard, moderators by the service, admins with checked input', async () => {
  const { people, staffAct, staffPage, balanceRow } = await setup()
  const ana = people.ana.id
  const topUp = { intent: 'balance_topup', amountJpy: '20000', reference: 'BANK-1' }
  expect(await staffAct(ana, topUp)).toMatchObject({ status: 401 })
  expect(await staffAct(ana, topUp, people.ana.cookie)).toMatchObject({ status: 403 })
  expect(await staffAct(ana, topUp, people.moderator.cookie)).toMatchObject({
    status: 403,
    data: { messageKey: 'errors.reasons.balanceAdminsOnly' },
  })
  expect(
    await staffAct(
      ana,
      { intent: 'balance_adjust', direction: 'credit', amountJpy: '5', reason: 'x' },
      people.moderator.cookie,
    ),
  ).toMatchObject({ status: 403 })
  for (const [amountJpy, error] of [
    ['', 'amountRequired'],
    ['-100', 'amountWhole'],
    ['12.5', 'amountWhole'],
    ['9999999999999', 'topUpRange'],
    ['diez mil', 'amountWhole'],
  ] as const) {
    expect(await staffAct(ana, { ...topUp, amountJpy }, people.admin.cookie)).toMatchObject({
      status: 400,
      data: { intent: 'balance_topup', fieldErrors: { amountJpy: [error] } },
    })
  }
  expect(await balanceRow(ana)).toBe(0)
  const done = await staffAct(ana, topUp, people.admin.cookie)
  expect(done.status).toBe(302)
  expect(redirectOf(done).notice).toMatchObject({ name: 'balanceTopUpRecorded' })
  expect(await balanceRow(ana)).toBe(20000)
  // The moderator reads the balance and the statement, with no forms.
  const read = await staffPage(ana, people.moderator.cookie)
  expect(read).toMatchObject({
    status: 200,
    data: {
      balance: { canMove: false, statement: { balanceLabel: yen(20000), rows: [{ kind: 'topup' }] } },
      picture: { totals: { balanceJpy: 20000, balance: yen(20000) } },
    },
  })
  expect(await staffPage(ana, people.admin.cookie)).toMatchObject({ data: { balance: { canMove: true } } })
  expect(
    await staffAct(
      ana,
      { intent: 'balance_adjust', direction: 'debit', amountJpy: '30000', reason: 'Too much' },
      people.admin.cookie,
    ),
  ).toMatchObject({ status: 409, data: { messageKey: 'errors.reasons.balanceTooLow' } })
  expect(
    await staffAct(
      ana,
      { intent: 'balance_adjust', direction: 'debit', amountJpy: '500', reason: '' },
      people.admin.cookie,
    ),
  ).toMatchObject({ status: 400, data: { fieldErrors: { reason: ['reasonRequired'] } } })
  expect(await balanceRow(ana)).toBe(20000)
})

test('the statement page and its CSV: the customer own only, in both languages, hostile text defused', async () => {
  const { services, pool, orders, people, page, csv, staffAct, payOnRequest, balanceRow } = await setup()
  expect(await page()).toMatchObject({ status: 401, data: { guard: 'login' } })
  const quoted = await insertQuotedRequest(pool, { userId: people.ana.id })
  await staffAct(
    people.ana.id,
    { intent: 'balance_topup', amountJpy: '¥10,000', reference: 'BANK-9' },
    people.admin.cookie,
  )
  await adjustBalance(orders.as({ id: people.admin.id, role: 'admin' }), {
    userId: people.ana.id,
    direction: 'credit',
    amountJpy: '100',
    reason: '=HYPERLINK("http://evil.example")',
  })
  // Paying from the balance on the request page: bad amounts are the panel's message, nothing taken.
  for (const [amountJpy, key] of [
    ['-1', 'balance.errors.amountWhole'],
    ['1.5', 'balance.errors.amountWhole'],
    ['abc', 'balance.errors.amountWhole'],
  ] as const) {
    expect(
      await payOnRequest(quoted.requestId, { invoiceId: quoted.invoiceId, amountJpy }, people.ana.cookie),
    ).toMatchObject({
      status: 400,
      data: { payment: { error: key } },
    })
  }
  expect(
    await payOnRequest(quoted.requestId, { invoiceId: quoted.invoiceId, amountJpy: '' }, people.bruno.cookie),
  ).toMatchObject({ status: 404 })
  expect(await balanceRow(people.ana.id)).toBe(10100)
  // The request page offers the balance beside the quote, and says what it already paid.
  await payOnRequest(quoted.requestId, { invoiceId: quoted.invoiceId, amountJpy: '100' }, people.ana.cookie)
  const shown = await callRoute(
    services,
    customerLayout.middleware,
    pageRequest(`/user-dashboard/requests/${quoted.requestId}`, { cookie: people.ana.cookie }),
    (args) => requestPage.loader(args as never),
    { params: { id: quoted.requestId }, context: { language: 'en' } },
  )
  expect(shown).toMatchObject({
    status: 200,
    data: {
      payment: {
        balance: { availableLabel: yen(10000), appliedLabel: yen(100) },
        totalLabel: yen(quoted.totalJpy - 100),
      },
    },
  })
  const paid = await payOnRequest(
    quoted.requestId,
    { invoiceId: quoted.invoiceId, amountJpy: '' },
    people.ana.cookie,
  )
  expect(paid.status).toBe(302)
  expect(redirectOf(paid)).toMatchObject({
    location: `/user-dashboard/requests/${quoted.requestId}`,
    notice: { name: 'balancePaid' },
  })
  expect(await balanceRow(people.ana.id)).toBe(10100 - quoted.totalJpy)

  for (const language of ['en', 'es'] as const) {
    const mine = await page(people.ana.cookie, language)
    expect(mine).toMatchObject({
      status: 200,
      data: {
        statement: {
          balanceLabel: yen(10100 - quoted.totalJpy, language),
          rows: [
            {
              kind: 'payment',
              amountLabel: yen(-(quoted.totalJpy - 100), language),
              balanceLabel: yen(10100 - quoted.totalJpy, language),
              owner: {
                kind: 'request',
                number: quoted.requestNumber,
                href: `/user-dashboard/requests/${quoted.requestId}`,
              },
              invoice: { number: quoted.invoiceNumber },
            },
            { kind: 'payment', amountLabel: yen(-100, language), balanceLabel: yen(10000, language) },
            { kind: 'adjustment' },
            { kind: 'topup', reference: 'BANK-9' },
          ],
        },
      },
    })
  }
  const others = await page(people.bruno.cookie)
  expect(others).toMatchObject({ status: 200, data: { statement: { rows: [] } } })

  const file = await csv(people.ana.cookie, 'es')
  expect(file.status).toBe(200)
  expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  expect(file.headers.get('content-disposition')).toBe('attachment; filename="balance-statement.csv"')
  const text = String(file.data)
  // (Reading the body as text drops the byte-order mark; statement-csv.test.ts checks it is there.)
  const lines = text.replace(/^\uFEFF/, '').split('\r\n')
  expect(lines[0]).toBe('Fecha (hora de Japón),Movimiento,Monto (JPY),Saldo (JPY),Para,Nota')
  expect(lines[1]).toContain('Recarga,10000,10000,,Transferencia bancaria BANK-9')
  expect(lines[2]).toContain(`Ajuste,100,10100,,"'=HYPERLINK(""http://evil.example"")"`)
  expect(lines[3]).toContain(`Pago,-100,10000,Solicitud ${quoted.requestNumber}`)
  expect(lines[4]).toContain(
    `Pago,-${quoted.totalJpy - 100},${10100 - quoted.totalJpy},Solicitud ${quoted.requestNumber}`,
  )
  expect(String((await csv(people.bruno.cookie)).data).split('\r\n')).toHaveLength(2)
  expect((await csv()).status).toBe(401)
})

test('on the payments page the customer sends a refund on its way to their balance; another customer cannot', async () => {
  const { services, pool, people, staffAct, payOnRequest, balanceRow } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: people.ana.id })
  await staffAct(
    people.ana.id,
    { intent: 'balance_topup', amountJpy: '10000', reference: 'BANK-R' },
    people.admin.cookie,
  )
  await payOnRequest(quoted.requestId, { invoiceId: quoted.invoiceId, amountJpy: '' }, people.ana.cookie)
  const paymentId = String(
    (await pool.query(`SELECT id FROM payments WHERE invoice_id = $1`, [quoted.invoiceId])).rows[0]?.id,
  )
  await pool.query(
    `INSERT INTO refunds (payment_id, amount_jpy, status, reason) VALUES ($1, 900, 'due', 'test')`,
    [paymentId],
  )
  const post = (fields: Record<string, string>, cookie?: string) =>
    callRoute(
      services,
      customerLayout.middleware,
      formPost('/user-dashboard/payments', fields, { cookie }),
      (args) => moneyPage.action(args as never),
      { context: { language: 'en' } },
    )
  const before = await balanceRow(people.ana.id)
  expect(await post({ intent: 'refund_to_balance', paymentId })).toMatchObject({ status: 401 })
  expect(await post({ intent: 'refund_to_balance', paymentId }, people.bruno.cookie)).toMatchObject({
    status: 404,
  })
  expect(await post({ intent: 'refund_to_balance', paymentId: 'nope' }, people.ana.cookie)).toMatchObject({
    status: 404,
  })
  expect(await post({ intent: 'other', paymentId }, people.ana.cookie)).toMatchObject({ status: 400 })
  expect(await balanceRow(people.ana.id)).toBe(before)
  const done = await post({ intent: 'refund_to_balance', paymentId }, people.ana.cookie)
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toMatchObject({
    location: '/user-dashboard/balance',
    notice: { name: 'refundedToMyBalance' },
  })
  expect(await balanceRow(people.ana.id)).toBe(before + 900)
  expect(await post({ intent: 'refund_to_balance', paymentId }, people.ana.cookie)).toMatchObject({
    status: 409,
    data: { messageKey: 'errors.reasons.refundNothingDue' },
  })
})

test('staff send a refund due to the balance from the request page: admins only', async () => {
  const { services, pool, people, staffAct, payOnRequest, balanceRow } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: people.ana.id })
  await staffAct(
    people.ana.id,
    { intent: 'balance_topup', amountJpy: '10000', reference: 'BANK-S' },
    people.admin.cookie,
  )
  await payOnRequest(quoted.requestId, { invoiceId: quoted.invoiceId, amountJpy: '' }, people.ana.cookie)
  const paymentId = String(
    (await pool.query(`SELECT id FROM payments WHERE invoice_id = $1`, [quoted.invoiceId])).rows[0]?.id,
  )
  await pool.query(
    `INSERT INTO refunds (payment_id, amount_jpy, status, reason) VALUES ($1, 700, 'due', 'test')`,
    [paymentId],
  )
  const post = (cookie?: string) =>
    callRoute(
      services,
      staffMiddleware,
      formPost(
        `/admin-dashboard/requests/${quoted.requestId}`,
        { intent: 'refund_balance', paymentId },
        { cookie },
      ),
      (args) => staffRequestPage.action(args as never),
      { params: { id: quoted.requestId }, context: { language: 'en' } },
    )
  const before = await balanceRow(people.ana.id)
  expect(await post()).toMatchObject({ status: 401 })
  expect(await post(people.ana.cookie)).toMatchObject({ status: 403 })
  expect(await post(people.moderator.cookie)).toMatchObject({ status: 403 })
  expect(await balanceRow(people.ana.id)).toBe(before)
  const done = await post(people.admin.cookie)
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toMatchObject({
    location: `/admin-dashboard/requests/${quoted.requestId}`,
    notice: { name: 'refundedToBalance' },
  })
  expect(await balanceRow(people.ana.id)).toBe(before + 700)
  expect(await post(people.admin.cookie)).toMatchObject({ status: 409 })
})
