import { expect, test } from 'vitest'
import type { NoticeName } from '#app/lib/notice.ts'
import { invoices, orderEvents } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  type routeArgs,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { action as dashboardAction } from '../customer/dashboard.tsx'
import { loader as myInvoiceLoader } from '../customer/invoice.tsx'
import { middleware as customerMiddleware } from '../customer/layout.tsx'
import { loader as myRequestLoader } from '../customer/request.tsx'
import { loader as staffInvoiceLoader } from './invoice.tsx'
import { middleware as adminOnlyMiddleware } from './layout.tsx'
import { loader as messagesLoader } from './messages.tsx'
import { action as requestAction, loader as requestLoader } from './request.tsx'
import { middleware as staffMiddleware } from './staff-layout.tsx'

// The staff request page's loader and every action through the staff branch's middleware, for
// every role: anonymous → the login guard, a customer → the admin guard, moderators and admins
// as the staff policy says; bad input, stale versions, and the receipts of both areas.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const run = (
    middleware: Parameters<typeof callRoute>[1],
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    params: Record<string, string> = {},
  ) => callRoute(services, middleware, request, handler, { params, context: { language: 'en' } })
  const people = {
    ana: await signedInCaller(pool, { email: 'ana@example.com' }),
    bruno: await signedInCaller(pool, { email: 'bruno@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const newRequest = async () => {
    const sent = await run(
      customerMiddleware,
      formPost(
        '/user-dashboard',
        { form: 'request', 'items[0].url': 'https://jp.mercari.com/item/m1', 'items[0].quantity': '2' },
        { cookie: people.ana.cookie },
      ),
      (args) => dashboardAction(args as never),
    )
    const id = (sent.headers.get('location') ?? '').split('/')[3]?.split('?')[0] ?? ''
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM request_items WHERE request_id = $1', [
      id,
    ])
    return { id, itemId: rows[0]?.id ?? '' }
  }
  const versionOf = async (id: string) =>
    String((await pool.query('SELECT version FROM purchase_requests WHERE id = $1', [id])).rows[0]?.version)
  const invoiceOf = async (requestId: string) =>
    (
      await pool.query<{ id: string; number: string }>(
        'SELECT id, number FROM invoices WHERE request_id = $1',
        [requestId],
      )
    ).rows[0]
  const view = (id: string, cookie?: string) =>
    run(
      staffMiddleware,
      pageRequest(`/admin-dashboard/requests/${id}`, { cookie }),
      (args) => requestLoader(args as never),
      {
        id,
      },
    )
  const post = (id: string, fields: Record<string, string> | FormData, cookie?: string) =>
    run(
      staffMiddleware,
      formPost(`/admin-dashboard/requests/${id}`, fields, { cookie }),
      (args) => requestAction(args as never),
      {
        id,
      },
    )
  const staffInvoice = (id: string, cookie?: string) =>
    run(
      staffMiddleware,
      pageRequest(`/admin-dashboard/invoices/${id}`, { cookie }),
      (args) => staffInvoiceLoader(args as never),
      {
        id,
      },
    )
  const myInvoice = (id: string, cookie?: string) =>
    run(
      customerMiddleware,
      pageRequest(`/user-dashboard/invoices/${id}`, { cookie }),
      (args) => myInvoiceLoader(args as never),
      {
        id,
      },
    )
  const myRequest = (id: string, cookie?: string) =>
    run(
      customerMiddleware,
      pageRequest(`/user-dashboard/requests/${id}`, { cookie }),
      (args) => myRequestLoader(args as never),
      {
        id,
      },
    )
  const messages = (cookie?: string) =>
    run(adminOnlyMiddleware, pageRequest('/admin-dashboard/messages', { cookie }), (args) =>
      messagesLoader(args as never),
    )
  const written = async () => ({
    events: (await db.select().from(orderEvents)).length,
    invoices: (await db.select().from(invoices)).length,
  })
  return {
    pool,
    invoiceOf,
    people,
    newRequest,
    versionOf,
    view,
    post,
    staffInvoice,
    myInvoice,
    myRequest,
    messages,
    written,
  }
}

/** Each staff action's fields for a request in the state it needs. */
function actionFields(itemId: string, version: string) {
  return {
    price: {
      intent: 'price',
      version,
      'items[0].id': itemId,
      'items[0].title': 'Figure',
      'items[0].unitPrice': '2,500',
      'items[0].domesticShipping': '800',
    },
    approve: { intent: 'approve', version },
    reject: { intent: 'reject', version, reason: 'Sold out' },
    revise: { intent: 'revise', version },
    note: { intent: 'note', version, text: 'Seller is slow', visibility: 'internal' },
    cancel: { intent: 'cancel', version, reason: 'The customer asked us by WhatsApp' },
  }
}

test('anonymous visitors get the login guard and customers the admin guard, for the page and every action; nothing is written', async () => {
  const { people, newRequest, versionOf, view, post, staffInvoice, written } = await setup()
  const request = await newRequest()
  const before = await written()
  const fields = actionFields(request.itemId, await versionOf(request.id))
  expect(await view(request.id)).toMatchObject({
    status: 401,
    data: { guard: 'login', redirectTo: `/admin-dashboard/requests/${request.id}` },
  })
  for (const [name, action] of Object.entries(fields)) {
    expect((await post(request.id, action)).status, `anonymous ${name}`).toBe(401)
  }
  for (const customer of [people.ana, people.bruno]) {
    expect(await view(request.id, customer.cookie)).toMatchObject({
      status: 403,
      data: { guard: 'admin', role: 'user' },
    })
    for (const [name, action] of Object.entries(fields)) {
      expect((await post(request.id, action, customer.cookie)).status, `${customer.email} ${name}`).toBe(403)
    }
    expect((await staffInvoice('00000000-0000-4000-8000-000000000000', customer.cookie)).status).toBe(403)
  }
  expect(await written()).toEqual(before)
})

test('moderators and admins price, approve, revise, note and reject through the page; moderators still cannot open admin-only pages', async () => {
  const { invoiceOf, people, newRequest, versionOf, view, post, staffInvoice, messages } = await setup()
  expect((await messages(people.moderator.cookie)).status).toBe(403)
  expect((await messages(people.admin.cookie)).status).toBe(200)
  for (const staff of [people.moderator, people.admin]) {
    const request = await newRequest()
    const page = await view(request.id, staff.cookie)
    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({
      may: { price: true, approve: true, reject: true, revise: false, note: true },
      draft: { complete: false },
    })
    const step = async (name: keyof ReturnType<typeof actionFields>, done: NoticeName) => {
      const answer = await post(
        request.id,
        actionFields(request.itemId, await versionOf(request.id))[name],
        staff.cookie,
      )
      expect(answer, `${staff.email} ${name}`).toMatchObject({ status: 302 })
      expect(redirectOf(answer)).toMatchObject({
        location: `/admin-dashboard/requests/${request.id}`,
        notice: { name: done },
      })
    }
    await step('price', 'quoteSaved')
    expect((await view(request.id, staff.cookie)).data).toMatchObject({
      draft: {
        complete: true,
        totals: {
          itemsJpy: 5000,
          serviceFeeJpy: 1000,
          taxJpy: 600,
          domesticShippingJpy: 800,
          totalJpy: 7400,
        },
      },
    })
    await step('approve', 'quoteApproved')
    const quoted = await view(request.id, staff.cookie)
    expect(quoted.data).toMatchObject({
      request: { status: 'quoted' },
      may: { price: false, approve: false, reject: false, revise: true, note: true },
      invoices: [{ status: 'open', totalJpy: 7400 }],
    })
    const invoice = await invoiceOf(request.id)
    expect(await staffInvoice(invoice?.id ?? '', staff.cookie)).toMatchObject({
      status: 200,
      data: { invoice: { totalJpy: 7400, status: 'open', issuer: { taxRegistrationId: 'T0000000000000' } } },
    })
    await step('revise', 'quoteRevised')
    await step('note', 'noteAdded')
    await step('reject', 'quoteRejected')
    expect((await view(request.id, staff.cookie)).data).toMatchObject({
      request: { status: 'rejected' },
      may: { price: false, approve: false, reject: false, revise: false, note: true },
    })
  }
})

test('Approve takes the titles and prices as typed: saved with the approval, the quote priced from them (ADR 038)', async () => {
  const { invoiceOf, people, newRequest, versionOf, view, post, myRequest } = await setup()
  const request = await newRequest()
  // A draft title is staff's: their link reads it, the customer's still names the shop.
  const draft = {
    ...actionFields(request.itemId, await versionOf(request.id)).price,
    'items[0].title': 'Draft',
  }
  expect((await post(request.id, draft, people.moderator.cookie)).status).toBe(302)
  expect((await view(request.id, people.moderator.cookie)).data).toMatchObject({
    request: { items: [{ title: 'Draft' }] },
  })
  expect((await myRequest(request.id, people.ana.cookie)).data).toMatchObject({
    request: { items: [{ title: null }] },
  })
  // Nothing saved yet: the typed fields come with the pricing form's Approve button.
  const form = new FormData()
  for (const [name, value] of Object.entries(actionFields(request.itemId, await versionOf(request.id)).price))
    form.append(name, value)
  form.append('intent', 'approve')
  const answer = await post(request.id, form, people.moderator.cookie)
  expect(answer).toMatchObject({ status: 302 })
  // The notice names the invoice the customer now has to pay.
  const invoiceNumber = (await invoiceOf(request.id))?.number
  expect(invoiceNumber).toMatch(/^\d{4}-\d{6}$/)
  expect(redirectOf(answer)).toEqual({
    location: `/admin-dashboard/requests/${request.id}`,
    notice: { name: 'quoteApproved', params: { number: invoiceNumber } },
  })
  expect((await view(request.id, people.moderator.cookie)).data).toMatchObject({
    request: { status: 'quoted' },
    invoices: [{ status: 'open', totalJpy: 7400 }],
  })
  // On the quote now: the customer's link reads the item's title, not the shop's name.
  expect((await myRequest(request.id, people.ana.cookie)).data).toMatchObject({
    request: { items: [{ title: 'Figure' }] },
  })
})

test('staff cancel an unpaid request through the page only with a reason', async () => {
  const { people, newRequest, versionOf, view, post, written } = await setup()
  const request = await newRequest()
  expect((await view(request.id, people.moderator.cookie)).data).toMatchObject({ may: { cancel: true } })
  const before = await written()
  const noReason = await post(
    request.id,
    { intent: 'cancel', version: await versionOf(request.id), reason: '  ' },
    people.moderator.cookie,
  )
  expect(noReason.status).toBe(400)
  expect(noReason.data).toMatchObject({ intent: 'cancel', result: { error: { reason: ['reasonRequired'] } } })
  expect(await written()).toEqual(before)
  const cancelled = await post(
    request.id,
    actionFields(request.itemId, await versionOf(request.id)).cancel,
    people.moderator.cookie,
  )
  expect(redirectOf(cancelled)).toEqual({
    location: `/admin-dashboard/requests/${request.id}`,
    notice: { name: 'requestCancelledByStaff' },
  })
  expect((await view(request.id, people.moderator.cookie)).data).toMatchObject({
    request: { status: 'cancelled' },
    may: { cancel: false },
  })
})

test('a held payment on the page: admins accept it there; moderators see it but are refused the form; bad input is a 400', async () => {
  const { pool, invoiceOf, people, newRequest, versionOf, view, post } = await setup()
  const request = await newRequest()
  for (const name of ['price', 'approve'] as const) {
    await post(
      request.id,
      actionFields(request.itemId, await versionOf(request.id))[name],
      people.admin.cookie,
    )
  }
  const invoice = await invoiceOf(request.id)
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO payments (invoice_id, provider, provider_ref, capture_ref, status, requested_jpy, amount, currency, settled_at)
     VALUES ($1, 'stripe', 'cs_held', 'pi_held', 'held', 7400, 7400, 'JPY', now()) RETURNING id`,
    [invoice?.id],
  )
  const paymentId = rows[0]?.id ?? ''
  const resolve = { intent: 'resolve_held', paymentId, version: '0', resolution: 'accept' }

  // Moderators see the held payment and no form; the action refuses them.
  expect((await view(request.id, people.moderator.cookie)).data).toMatchObject({
    payments: { rows: [{ id: paymentId, status: 'held' }], canRefund: false },
  })
  expect(await post(request.id, resolve, people.moderator.cookie)).toMatchObject({ status: 403 })
  expect(await post(request.id, resolve, people.ana.cookie)).toMatchObject({ status: 403 })

  const bad = await post(request.id, { ...resolve, resolution: 'keep' }, people.admin.cookie)
  expect(bad).toMatchObject({
    status: 400,
    data: { intent: 'resolve_held', paymentId, result: { error: { resolution: ['resolutionUnknown'] } } },
  })
  const accepted = await post(request.id, resolve, people.admin.cookie)
  expect(accepted.status).toBe(302)
  expect(redirectOf(accepted)).toEqual({
    location: `/admin-dashboard/requests/${request.id}`,
    notice: { name: 'heldPaymentAccepted' },
  })
  expect((await view(request.id, people.admin.cookie)).data).toMatchObject({
    request: { status: 'paid' },
    payments: { rows: [{ id: paymentId, status: 'succeeded' }] },
  })
  // The same form again (a second tab): told it was resolved already, in words.
  const again = await post(request.id, resolve, people.admin.cookie)
  expect(again.status).toBe(409)

  // A refund due on that Stripe payment, on a server where Stripe is not set up: the page offers
  // no provider refund, and the action says it is refunded by hand. Moderators are refused.
  await pool.query(
    `INSERT INTO refunds (payment_id, amount_jpy, status, reason) VALUES ($1, 700, 'due', 'test')`,
    [paymentId],
  )
  const version = String(
    (await pool.query('SELECT version FROM payments WHERE id = $1', [paymentId])).rows[0].version,
  )
  expect((await view(request.id, people.admin.cookie)).data).toMatchObject({
    payments: { rows: [{ id: paymentId, refundOutstanding: true, viaProvider: false }] },
  })
  const refund = { intent: 'refund_provider', paymentId, version, confirm: 'yes' }
  expect(await post(request.id, refund, people.moderator.cookie)).toMatchObject({ status: 403 })
  // Money leaves at once: the server refuses a refund not confirmed (docs/decisions/037).
  const { confirm: _, ...unconfirmed } = refund
  expect(await post(request.id, unconfirmed, people.admin.cookie)).toMatchObject({
    status: 400,
    data: {
      intent: 'refund_provider',
      error: { messageKey: 'errors.reasons.actionNotConfirmed' },
      result: { error: { confirm: ['confirmRequired'] } },
    },
  })
  const manual = await post(request.id, refund, people.admin.cookie)
  expect(manual).toMatchObject({
    status: 409,
    data: { intent: 'refund_provider', paymentId, error: { messageKey: 'errors.reasons.refundManualOnly' } },
  })
  expect((await post(request.id, { ...refund, paymentId: 'nope' }, people.admin.cookie)).status).toBe(400)
})

test('bad input is a 400 with the field’s message and nothing written; a stale page is a 409 that says the request changed', async () => {
  const { people, newRequest, versionOf, view, post, written } = await setup()
  const request = await newRequest()
  const version = await versionOf(request.id)
  const before = await written()
  const cases: [Record<string, string>, Record<string, string[]>][] = [
    [
      { intent: 'price', version, 'items[0].id': request.itemId, 'items[0].unitPrice': '1.5' },
      { 'items[0].unitPrice': ['notWhole'] },
    ],
    [
      { intent: 'price', version, 'items[0].id': request.itemId, 'items[0].unitPrice': '-100' },
      { 'items[0].unitPrice': ['negative'] },
    ],
    [
      { intent: 'price', version, 'items[0].id': request.itemId, 'items[0].unitPrice': 'abc' },
      { 'items[0].unitPrice': ['notNumber'] },
    ],
    [
      { intent: 'price', version, 'items[0].id': request.itemId, 'items[0].unitPrice': '10000001' },
      { 'items[0].unitPrice': ['priceRange'] },
    ],
    [
      { intent: 'price', version, 'items[0].id': request.itemId, 'items[0].title': '<script>'.repeat(40) },
      { 'items[0].title': ['titleTooLong'] },
    ],
    [{ intent: 'reject', version, reason: '' }, { reason: ['reasonRequired'] }],
    [{ intent: 'reject', version, reason: 'r'.repeat(1001) }, { reason: ['reasonTooLong'] }],
    [{ intent: 'note', version, text: '', visibility: 'internal' }, { text: ['noteRequired'] }],
    [{ intent: 'note', version, text: 'x', visibility: 'public' }, { visibility: ['visibility'] }],
    [{ intent: 'approve', version: 'one' }, { version: ['invalid'] }],
  ]
  for (const [fields, errors] of cases) {
    const answer = await post(request.id, fields, people.moderator.cookie)
    expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(400)
    expect((answer.data as { result: { error: unknown } }).result.error).toEqual(errors)
  }
  // Not every item priced: approving is refused with its reason.
  const incomplete = await post(request.id, { intent: 'approve', version }, people.moderator.cookie)
  expect(incomplete.status).toBe(409)
  expect(incomplete.data).toMatchObject({ error: { messageKey: 'errors.reasons.quoteIncomplete' } })
  expect(await written()).toEqual(before)

  // Approve with the titles and prices typed but not saved (the pricing form's Approve button):
  // an item still without a price is refused on that form, nothing saved; then, all typed, the
  // draft is saved with the approval in one go (ADR 038).
  const typed = {
    intent: ['price', 'approve'],
    version,
    'items[0].id': request.itemId,
    'items[0].title': 'Figure',
    'items[0].unitPrice': '',
  }
  const typedPost = (fields: Record<string, string | string[]>) => {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields))
      for (const one of [value].flat()) form.append(name, one)
    return post(request.id, form, people.moderator.cookie)
  }
  const halfTyped = await typedPost(typed)
  expect(halfTyped.status).toBe(409)
  expect(halfTyped.data).toMatchObject({
    intent: 'price',
    error: { messageKey: 'errors.reasons.quoteIncomplete' },
  })
  expect(await written()).toEqual(before)

  // Two tabs: the first saves, the second (same version) is told the request changed.
  const fields = actionFields(request.itemId, version)
  expect((await post(request.id, fields.price, people.admin.cookie)).status).toBe(302)
  const stale = await post(request.id, fields.note, people.moderator.cookie)
  expect(stale.status).toBe(409)
  expect(stale.data).toMatchObject({
    intent: 'note',
    error: { code: 'conflict', messageKey: 'errors.reasons.requestChanged' },
  })
  // An unknown request: not found, as for a made-up id.
  expect((await view('00000000-0000-4000-8000-000000000000', people.admin.cookie)).status).toBe(404)
  expect((await view('not-an-id', people.admin.cookie)).status).toBe(404)
})

test('the customer sees their quote and receipts; another customer gets not found', async () => {
  const { invoiceOf, people, newRequest, versionOf, post, myInvoice, myRequest } = await setup()
  const request = await newRequest()
  const fields = () => versionOf(request.id).then((version) => actionFields(request.itemId, version))
  await post(request.id, (await fields()).price, people.moderator.cookie)
  await post(request.id, (await fields()).approve, people.moderator.cookie)
  const invoice = await invoiceOf(request.id)
  const id = invoice?.id ?? ''

  const page = await myRequest(request.id, people.ana.cookie)
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    quote: {
      id,
      number: invoice?.number,
      totalJpy: 7400,
      lines: [{ kind: 'item' }, { kind: 'service_fee' }, { kind: 'domestic_shipping' }],
    },
    invoices: [{ id, status: 'open' }],
  })
  expect(await myInvoice(id, people.ana.cookie)).toMatchObject({
    status: 200,
    data: { invoice: { id, recipient: { email: 'ana@example.com' } } },
  })
  expect(await myInvoice(id, people.bruno.cookie)).toMatchObject({
    status: 404,
    data: { appError: { code: 'not_found', messageKey: 'errors.reasons.invoiceNotFound' } },
  })
  expect((await myInvoice('00000000-0000-4000-8000-000000000000', people.ana.cookie)).status).toBe(404)
  expect((await myInvoice(id)).status).toBe(401)
  expect((await myRequest(request.id, people.bruno.cookie)).status).toBe(404)
})
