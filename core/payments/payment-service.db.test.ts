import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq } from 'drizzle-orm'
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { HTTP_STATUS, isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import type { Database } from '#db/client.ts'
import {
  invoices,
  notifications,
  orderEvents,
  payments,
  purchaseRequests,
  refunds,
  requestItems,
  users,
  webhookEvents,
} from '#db/schema/index.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { insertQuotedRequest, type QuotedRequest } from '#tests/support/invoices.ts'
import { waitForLockWait } from '#tests/support/locks.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import {
  type PaymentStandIn,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import {
  ABANDON_AFTER_HOURS,
  BEING_CONFIRMED_MINUTES,
  confirmPendingPayment,
  confirmReturn,
  handleWebhook,
  reconcilePendingPayments,
  startCheckout,
} from './payment-service.ts'
import { getPaymentPanel } from './payment-views.ts'
import { type PaymentProvider, type ProviderName, paymentProvidersFromEnv } from './provider.ts'
import { type PaymentSystemDeps, settlePayment } from './settle-payment.ts'

// The real adapters (PayPal Orders v2, Stripe Checkout) against the local stand-in, through the
// payment service and the webhook route, on a real database: paying, replays, forgeries, races,
// amounts that differ, a second payment, a provider down or slow, and reconciliation.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }
const PROVIDERS = ['paypal', 'stripe'] as const satisfies ProviderName[]

let standIn: PaymentStandIn
let db: Database
let pool: pg.Pool
let providers: PaymentProvider[]
let orders: Awaited<ReturnType<typeof createOrderTestDeps>>
let system: PaymentSystemDeps
let webhookUrl: string

beforeAll(async () => {
  ;({ db, pool } = await createTestDatabase())
  standIn = await startPaymentStandIn()
  // A short time limit, so "provider hangs" takes a second.
  providers = paymentProvidersFromEnv({ ...standIn.env, PAYMENT_PROVIDER_TIMEOUT_SECONDS: '1' })
  orders = await createOrderTestDeps(db, pool, { payments: providers })
  system = { db, jobs: orders.jobs, settings: orders.settings, payments: providers, appUrl: orders.appUrl }
  // A webhook receiver doing what the app's route does (server/payment-webhooks.ts, tested on its
  // own): the raw body and headers to handleWebhook, its refusal's status as the answer.
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const provider = req.url?.split('/').at(-1) ?? ''
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    )
    try {
      const { result } = await handleWebhook(system, provider, headers, body)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }))
    } catch (error) {
      if (!isAppError(error)) throw error
      res
        .writeHead(HTTP_STATUS[error.code], { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: error.code } }))
    }
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhooks/`
  onFileCleanup(() => new Promise((resolve) => server.close(() => resolve())))
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
  ])
})
afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  standIn.resetControls()
  standIn.webhookUrl = webhookUrl
})

async function quote(): Promise<QuotedRequest> {
  return insertQuotedRequest(pool, { userId: ana.id })
}

async function state(quoted: QuotedRequest) {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId))
  const rows = await db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, quoted.invoiceId))
    .orderBy(payments.createdAt)
  const paymentIds = rows.map((row) => row.id)
  const refundRows = paymentIds.length
    ? (await db.select().from(refunds)).filter((refund) => paymentIds.includes(refund.paymentId))
    : []
  const history = await db
    .select({ type: orderEvents.entityType, event: orderEvents.event })
    .from(orderEvents)
    .where(eq(orderEvents.entityId, quoted.invoiceId))
  const told = await db
    .select({ type: notifications.type })
    .from(notifications)
    .where(and(eq(notifications.requestId, quoted.requestId), eq(notifications.audience, 'customer')))
  // Staff's own list (ADR 036): here the moderator's, who is told of what they may act on.
  const staffTold = await db
    .select({ type: notifications.type })
    .from(notifications)
    .where(and(eq(notifications.requestId, quoted.requestId), eq(notifications.audience, 'staff')))
  const items = await db
    .select({ status: requestItems.status })
    .from(requestItems)
    .where(eq(requestItems.requestId, quoted.requestId))
  return {
    invoice: invoice?.status,
    invoicePays: history.filter((row) => row.event === 'pay').length,
    request: request?.status,
    payments: rows.map((row) => ({
      provider: row.provider,
      status: row.status,
      amount: row.amount,
      currency: row.currency,
    })),
    rows,
    refunds: refundRows.map((row) => ({ status: row.status, amountJpy: row.amountJpy })),
    told: told.map((row) => row.type),
    staffTold: staffTold.map((row) => row.type),
    items: items.map((row) => row.status),
  }
}

async function staffEmails(type: string) {
  const { rows } = await pool.query(
    `SELECT data FROM pgboss.job WHERE name = 'notification.staff-email' AND data->>'type' = $1`,
    [type],
  )
  return rows.map((row) => row.data as { params: Record<string, unknown>; link: string })
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.details.reason }
    throw error
  }
  throw new Error('expected a refusal')
}

async function webhookCount() {
  return (await db.select().from(webhookEvents)).length
}

for (const provider of PROVIDERS) {
  test(`${provider}: the customer pays on the provider's page and comes back: paid once, even as the webhook races the return`, async () => {
    const quoted = await quote()
    const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    expect(checkout).toMatchObject({ provider, reused: false })
    expect(new URL(checkout.payUrl).origin).toBe(standIn.url)
    const [row] = (await state(quoted)).rows
    expect(row).toMatchObject({ status: 'pending', requestedJpy: 7400, payUrl: checkout.payUrl })
    expect(row?.providerRef).toBeTruthy()
    // The return and cancel URLs carry our payment id, not the provider's reference.
    const created = standIn.calls.filter(
      (call) =>
        call.method === 'POST' && /\/(orders|sessions)$/.test(call.path) && (call.status ?? 500) < 300,
    )
    const sent = created.find((call) => decodeURIComponent(call.body).includes(checkout.paymentId))
    expect(decodeURIComponent(sent?.body ?? '')).toContain(
      `/payments/return/${provider}?payment=${checkout.paymentId}`,
    )
    expect(decodeURIComponent(sent?.body ?? '')).toContain(
      `/payments/cancel/${provider}?payment=${checkout.paymentId}`,
    )

    // A second click, another tab: the same checkout.
    expect(await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })).toEqual({
      ...checkout,
      reused: true,
    })

    const approved = await submitPayPage(checkout.payUrl, 'Approve payment')
    expect(approved.location).toContain(`payment=${checkout.paymentId}`)
    const back = await confirmReturn(system, { provider, paymentId: checkout.paymentId })
    await standIn.settled()
    expect(back).toEqual({ owner: { kind: 'request', id: quoted.requestId }, status: 'succeeded' })
    const after = await state(quoted)
    expect(after).toMatchObject({
      invoice: 'paid',
      invoicePays: 1,
      request: 'paid',
      payments: [{ provider, status: 'succeeded', amount: 7400, currency: 'JPY' }],
      refunds: [],
      told: ['payment_received'],
      // Staff hear of a quote paid online: its items are to buy (ADR 036); once, however many
      // reports came.
      staffTold: ['quote_paid'],
      items: ['to_buy'],
    })
    expect((await staffEmails('quote_paid')).filter((mail) => mail.link.includes(quoted.requestId))).toEqual([
      {
        type: 'quote_paid',
        params: {
          number: quoted.requestNumber,
          invoice: quoted.invoiceNumber,
          amountJpy: 7400,
          provider: provider === 'paypal' ? 'PayPal' : 'Stripe',
        },
        link: `/admin-dashboard/requests/${quoted.requestId}`,
      },
    ])
    expect(after.rows[0]?.captureRef).toBeTruthy()
    // Every webhook was accepted (200), none left the payment differently.
    expect(
      standIn.webhooks.filter((webhook) => webhook.provider === provider).every((w) => w.status === 200),
    ).toBe(true)

    // Replayed: the same bytes, and freshly signed (a provider's retry): 200, nothing changes.
    const events = await webhookCount()
    const replay = await standIn.replayLastWebhook()
    const resigned = await standIn.replayLastWebhook({ resign: true })
    expect([replay.status, resigned.status]).toEqual([200, 200])
    expect(await webhookCount()).toBe(events)
    // The customer reloads the return page: still paid, once.
    expect(await confirmReturn(system, { provider, paymentId: checkout.paymentId })).toEqual(back)
    expect(await state(quoted)).toEqual(after)
  })

  test(`${provider}: return and webhook at the same moment, several times: one payment succeeded, the invoice paid once`, async () => {
    const quoted = await quote()
    standIn.webhookUrl = null // the webhooks are recorded, and delivered below, all at once
    const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    await submitPayPage(checkout.payUrl, 'Approve payment')
    let webhook = standIn.webhooks.at(-1)
    if (provider === 'paypal') {
      // PayPal tells of the money at capture: capture once (as a return would) to have that event.
      await providers[0]?.confirm(String((await state(quoted)).rows[0]?.providerRef))
      webhook = standIn.webhooks.at(-1)
      expect(webhook?.type).toBe('PAYMENT.CAPTURE.COMPLETED')
    }
    if (!webhook) throw new Error('no webhook')
    const results = await Promise.all([
      confirmReturn(system, { provider, paymentId: checkout.paymentId }),
      handleWebhook(system, provider, webhook.headers, webhook.body),
      confirmReturn(system, { provider, paymentId: checkout.paymentId }),
      handleWebhook(system, provider, webhook.headers, webhook.body).catch((error) => error),
    ])
    expect(results[0]).toMatchObject({ status: 'succeeded' })
    expect(results[2]).toMatchObject({ status: 'succeeded' })
    expect(await state(quoted)).toMatchObject({
      invoice: 'paid',
      invoicePays: 1,
      request: 'paid',
      payments: [{ status: 'succeeded' }],
      told: ['payment_received'],
    })
    expect(
      (await db.select().from(webhookEvents)).filter((row) => row.eventId === webhook.eventId),
    ).toHaveLength(1)
  })

  test(`${provider}: an amount or currency other than the invoice's is held for review, never paid; staff and customer told`, async () => {
    for (const override of [
      { amount: 999, currency: 'JPY' },
      { amount: 50, currency: 'USD' },
    ]) {
      const quoted = await quote()
      const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
      standIn.overrideAmount = override
      await submitPayPage(checkout.payUrl, 'Approve payment')
      expect(await confirmReturn(system, { provider, paymentId: checkout.paymentId })).toMatchObject({
        status: 'held',
      })
      await standIn.settled()
      standIn.overrideAmount = null
      expect(await state(quoted)).toMatchObject({
        invoice: 'open',
        invoicePays: 0,
        request: 'quoted',
        payments: [
          {
            status: 'held',
            amount: override.currency === 'JPY' ? override.amount : null,
            currency: override.currency,
          },
        ],
        refunds: [],
        told: ['payment_review'],
        items: ['quoted'],
      })
      const held = (await staffEmails('payment_held')).filter((job) => job.link.endsWith(quoted.requestId))
      expect(held).toEqual([
        {
          type: 'payment_held',
          params: {
            number: quoted.requestNumber,
            amount: override.currency === 'JPY' ? override.amount : '—',
            currency: override.currency,
            expectedJpy: 7400,
          },
          link: `/admin-dashboard/requests/${quoted.requestId}`,
        },
      ])
      // The customer is not asked to pay again while staff review it.
      expect(await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider }))).toEqual(
        {
          code: 'conflict',
          reason: 'paymentUnderReview',
        },
      )
    }
  })

  test(`${provider}: declined: the attempt fails, the customer may pay again with a new checkout`, async () => {
    const quoted = await quote()
    const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    await submitPayPage(checkout.payUrl, 'Decline')
    await standIn.settled()
    expect(await confirmReturn(system, { provider, paymentId: checkout.paymentId })).toMatchObject({
      status: 'failed',
    })
    expect(await state(quoted)).toMatchObject({
      invoice: 'open',
      request: 'quoted',
      payments: [{ status: 'failed' }],
    })
    const again = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    expect(again.paymentId).not.toBe(checkout.paymentId)
    await submitPayPage(again.payUrl, 'Approve payment')
    expect(await confirmReturn(system, { provider, paymentId: again.paymentId })).toMatchObject({
      status: 'succeeded',
    })
    await standIn.settled()
    expect(await state(quoted)).toMatchObject({
      invoice: 'paid',
      payments: [{ status: 'failed' }, { status: 'succeeded' }],
      told: ['payment_received'],
    })
  })

  test(`${provider}: forged webhooks are refused (400) and write nothing`, async () => {
    const quoted = await quote()
    const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    standIn.webhookUrl = null
    await submitPayPage(checkout.payUrl, 'Approve payment')
    standIn.webhookUrl = webhookUrl
    const before = { events: await webhookCount(), state: await state(quoted) }
    const forged = await standIn.sendForgedWebhook(provider)
    expect(forged.status).toBe(400)
    // A real event's body under another event's signature (tampered): refused too.
    const real = standIn.webhooks.find((webhook) => webhook.provider === provider && !webhook.forged)
    if (!real) throw new Error('no real webhook')
    const tampered = await fetch(`${webhookUrl}${provider}`, {
      method: 'POST',
      headers: real.headers,
      body: real.body.replace('7400', '7401'),
    })
    expect(tampered.status).toBe(400)
    expect(await tampered.json()).toMatchObject({ error: { code: 'invalid' } })
    const unsigned = await fetch(`${webhookUrl}${provider}`, { method: 'POST', body: '{}' })
    expect(unsigned.status).toBe(400)
    expect({ events: await webhookCount(), state: await state(quoted) }).toEqual(before)
  })
}

test('stripe: the webhook alone pays (the customer never comes back)', async () => {
  const quoted = await quote()
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })
  await submitPayPage(checkout.payUrl, 'Approve payment')
  await standIn.settled()
  expect(standIn.webhooks.at(-1)).toMatchObject({ type: 'checkout.session.completed', status: 200 })
  expect(await state(quoted)).toMatchObject({
    invoice: 'paid',
    request: 'paid',
    payments: [{ status: 'succeeded' }],
  })
  const [event] = (await db.select().from(webhookEvents)).filter(
    (row) => row.eventId === standIn.webhooks.at(-1)?.eventId,
  )
  expect(event?.processedAt).toBeInstanceOf(Date)
})

test('a second success for a paid invoice: flagged duplicate, a refund due, staff and the customer told; the invoice paid once', async () => {
  const quoted = await quote()
  const first = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })
  const second = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'paypal' })
  await submitPayPage(first.payUrl, 'Approve payment')
  await submitPayPage(second.payUrl, 'Approve payment')
  await standIn.settled()
  expect(await confirmReturn(system, { provider: 'stripe', paymentId: first.paymentId })).toMatchObject({
    status: 'succeeded',
  })
  expect(await confirmReturn(system, { provider: 'paypal', paymentId: second.paymentId })).toMatchObject({
    status: 'duplicate',
  })
  await standIn.settled()
  expect(await state(quoted)).toMatchObject({
    invoice: 'paid',
    invoicePays: 1,
    request: 'paid',
    payments: [
      { provider: 'stripe', status: 'succeeded' },
      { provider: 'paypal', status: 'duplicate', amount: 7400, currency: 'JPY' },
    ],
    refunds: [{ status: 'due', amountJpy: 7400 }],
    // The customer hears that the second payment goes back (docs/decisions/034).
    told: ['payment_received', 'payment_refunding'],
  })
  expect((await staffEmails('refund_due')).filter((job) => job.link.endsWith(quoted.requestId))).toEqual([
    {
      type: 'refund_due',
      params: { number: quoted.requestNumber, amountJpy: 7400, provider: 'PayPal' },
      link: `/admin-dashboard/requests/${quoted.requestId}`,
    },
  ])
  // Paid: no new checkout.
  expect(
    await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })),
  ).toEqual({
    code: 'conflict',
    reason: 'invoicePaid',
  })
})

test('provider down or hanging: a clear error, nothing the customer sees; the next click reuses the same attempt', async () => {
  const quoted = await quote()
  for (const down of ['error', 'hang'] as const) {
    standIn.down = down
    const started = Date.now()
    expect(
      await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'paypal' })),
    ).toEqual({ code: 'upstream_failed', reason: 'paymentProviderDown' })
    expect(Date.now() - started).toBeLessThan(5_000)
  }
  standIn.down = false
  standIn.delayMs = 1_500 // slower than the 1 s limit
  expect(
    await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })),
  ).toEqual({
    code: 'upstream_failed',
    reason: 'paymentProviderDown',
  })
  standIn.delayMs = 0
  // One attempt per provider, without a pay link: nothing to pay, nothing shown.
  const after = await state(quoted)
  expect(after.rows.map((row) => [row.provider, row.status, row.providerRef, row.payUrl])).toEqual([
    ['paypal', 'pending', null, null],
    ['stripe', 'pending', null, null],
  ])
  expect(after).toMatchObject({ invoice: 'open', request: 'quoted', told: [] })
  // Back up: the same payment (the same idempotency key) gets its checkout.
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'paypal' })
  expect(checkout.paymentId).toBe(after.rows[0]?.id)
  expect((await state(quoted)).rows).toHaveLength(2)

  // Down while the customer comes back: still pending, nothing written; settled later.
  await submitPayPage(checkout.payUrl, 'Approve payment')
  await standIn.settled()
  standIn.down = 'error'
  expect(await confirmReturn(system, { provider: 'paypal', paymentId: checkout.paymentId })).toMatchObject({
    status: 'pending',
  })
  // A PayPal webhook cannot be verified while PayPal is down: 502, and PayPal delivers it again.
  const replay = await standIn.replayLastWebhook()
  expect(replay.status).toBe(502)
  standIn.down = false
  expect(await state(quoted)).toMatchObject({
    invoice: 'open',
    payments: [{ status: 'pending' }, { status: 'pending' }],
  })
  expect(await confirmReturn(system, { provider: 'paypal', paymentId: checkout.paymentId })).toMatchObject({
    status: 'succeeded',
  })
})

test('reconciliation: settles a checkout whose webhook never came (capturing an approved PayPal order), leaves young ones, closes abandoned ones', async () => {
  standIn.webhookUrl = null
  const paypalQuote = await quote()
  const stripeQuote = await quote()
  const youngQuote = await quote()
  const oldQuote = await quote()
  const paypal = await startCheckout(orders.as(ana), { invoiceId: paypalQuote.invoiceId, provider: 'paypal' })
  const stripe = await startCheckout(orders.as(ana), { invoiceId: stripeQuote.invoiceId, provider: 'stripe' })
  await startCheckout(orders.as(ana), { invoiceId: youngQuote.invoiceId, provider: 'stripe' })
  const old = await startCheckout(orders.as(ana), { invoiceId: oldQuote.invoiceId, provider: 'stripe' })
  await submitPayPage(paypal.payUrl, 'Approve payment')
  await submitPayPage(stripe.payUrl, 'Approve payment')
  const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000)
  await db.update(payments).set({ createdAt: twentyMinutesAgo }).where(eq(payments.id, paypal.paymentId))
  await db.update(payments).set({ createdAt: twentyMinutesAgo }).where(eq(payments.id, stripe.paymentId))
  await db
    .update(payments)
    .set({ createdAt: new Date(Date.now() - (ABANDON_AFTER_HOURS + 1) * 3_600_000) })
    .where(eq(payments.id, old.paymentId))

  standIn.down = 'error'
  const unreachable = await reconcilePendingPayments(system)
  expect(unreachable).toMatchObject({ unreachable: 2, paid: 0, abandoned: 1 })
  standIn.down = false
  const report = await reconcilePendingPayments(system)
  expect(report).toMatchObject({ paid: 2, unreachable: 0, abandoned: 0 })
  expect(await state(paypalQuote)).toMatchObject({
    invoice: 'paid',
    request: 'paid',
    told: ['payment_received'],
  })
  expect(await state(stripeQuote)).toMatchObject({ invoice: 'paid', request: 'paid' })
  expect(await state(youngQuote)).toMatchObject({ invoice: 'open', payments: [{ status: 'pending' }] })
  expect(await state(oldQuote)).toMatchObject({ invoice: 'open', payments: [{ status: 'failed' }] })
  const [abandon] = await db
    .select({ actor: orderEvents.actorKind })
    .from(orderEvents)
    .where(and(eq(orderEvents.entityId, old.paymentId), eq(orderEvents.event, 'abandon')))
  expect(abandon).toEqual({ actor: 'system' })
  // Running again changes nothing.
  expect(await reconcilePendingPayments(system)).toMatchObject({ paid: 0, abandoned: 0 })
  expect(standIn.captureCount(String((await state(paypalQuote)).rows[0]?.providerRef))).toBe(1)
})

test('who may start a checkout: the owner only; someone else’s invoice is not found; bad provider or closed invoice refused', async () => {
  const quoted = await quote()
  const input = { invoiceId: quoted.invoiceId, provider: 'stripe' }
  expect(await refusal(startCheckout(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(startCheckout(orders.as(bruno), input))).toEqual({
    code: 'not_found',
    reason: 'invoiceNotFound',
  })
  expect(
    await refusal(
      startCheckout(orders.as(bruno), { ...input, invoiceId: '00000000-0000-4000-8000-000000000000' }),
    ),
  ).toEqual({ code: 'not_found', reason: 'invoiceNotFound' })
  expect(await refusal(startCheckout(orders.as(bruno), { ...input, invoiceId: 'x' }))).toEqual({
    code: 'not_found',
    reason: 'invoiceNotFound',
  })
  expect(await refusal(startCheckout(orders.as(moderator), input))).toMatchObject({ code: 'forbidden' })
  for (const provider of ['manual', 'mercadopago', '', '<script>']) {
    expect(await refusal(startCheckout(orders.as(ana), { ...input, provider }))).toEqual({
      code: 'invalid',
      reason: 'paymentProviderUnknown',
    })
  }
  // Not configured here: the manual method only.
  expect(await refusal(startCheckout({ ...orders.as(ana), payments: [] }, input))).toEqual({
    code: 'invalid',
    reason: 'paymentProviderUnknown',
  })
  await db.update(invoices).set({ status: 'void' }).where(eq(invoices.id, quoted.invoiceId))
  expect(await refusal(startCheckout(orders.as(ana), input))).toEqual({
    code: 'conflict',
    reason: 'invoiceNotPayable',
  })
  expect((await state(quoted)).rows).toEqual([])
  expect(standIn.calls.filter((call) => call.body.includes(quoted.invoiceId))).toEqual([])
})

test('a payment for an invoice voided meanwhile (a new quote) is held, not paid', async () => {
  const quoted = await quote()
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })
  await db.update(invoices).set({ status: 'void' }).where(eq(invoices.id, quoted.invoiceId))
  await submitPayPage(checkout.payUrl, 'Approve payment')
  await standIn.settled()
  expect(await state(quoted)).toMatchObject({
    invoice: 'void',
    request: 'quoted',
    payments: [{ status: 'held', amount: 7400 }],
    told: ['payment_review'],
  })
})

test('the return page for an unknown or mismatched payment is not found; webhooks for an unconfigured provider are 404', async () => {
  expect(await refusal(confirmReturn(system, { provider: 'stripe', paymentId: 'nope' }))).toEqual({
    code: 'not_found',
    reason: 'paymentNotFound',
  })
  const quoted = await quote()
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })
  expect(await refusal(confirmReturn(system, { provider: 'paypal', paymentId: checkout.paymentId }))).toEqual(
    {
      code: 'not_found',
      reason: 'paymentNotFound',
    },
  )
  const answer = await fetch(`${webhookUrl}mercadopago`, { method: 'POST', body: '{}' })
  expect(answer.status).toBe(404)
})

test('lock order: settling waits behind a transaction that holds the request and then takes the invoice (as quote expiry does), and never deadlocks', async () => {
  const quoted = await quote()
  standIn.webhookUrl = null
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })
  await submitPayPage(checkout.payUrl, 'Approve payment')
  const stripe = providers.find((provider) => provider.name === 'stripe')
  const outcome = await stripe?.lookup(String((await state(quoted)).rows[0]?.providerRef))
  if (!outcome) throw new Error('no outcome')
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SELECT 1 FROM purchase_requests WHERE id = $1 FOR UPDATE', [quoted.requestId])
    const settling = settlePayment(system, 'stripe', outcome, 'webhook')
    await waitForLockWait(pool)
    // With the payment or the invoice taken first, this would wait on the settle, which waits on
    // the request held here: a deadlock, one of the two aborted.
    await client.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [quoted.invoiceId])
    await client.query('COMMIT')
    expect(await settling).toMatchObject({ result: 'paid' })
  } finally {
    client.release()
  }
  expect(await state(quoted)).toMatchObject({ invoice: 'paid', request: 'paid' })
})

test('a crash between the provider taking the money and our record: "being confirmed", no second checkout, settled a minute later by the job', async () => {
  // The webhooks are lost too: only our own follow-up can learn the payment.
  standIn.webhookUrl = null
  for (const provider of PROVIDERS) {
    const quoted = await quote()
    const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    await submitPayPage(checkout.payUrl, 'Approve payment')
    // The process dies right after the provider answered the return (PayPal captured the order).
    const crashing: PaymentSystemDeps = {
      ...system,
      payments: providers.map((real) =>
        real.name === provider
          ? {
              ...real,
              confirm: async (ref: string) => {
                await real.confirm(ref)
                throw new Error('process killed')
              },
            }
          : real,
      ),
    }
    await expect(confirmReturn(crashing, { provider, paymentId: checkout.paymentId })).rejects.toThrow(
      'process killed',
    )
    expect((await state(quoted)).invoice).toBe('open')
    // The customer's page does not ask them to pay again, and no second checkout opens.
    expect(await getPaymentPanel(orders.as(ana), { kind: 'request', id: quoted.requestId })).toMatchObject({
      beingConfirmed: true,
      canPay: false,
    })
    for (const other of PROVIDERS) {
      expect(
        await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: other })),
      ).toEqual({ code: 'conflict', reason: 'paymentBeingConfirmed' })
    }
    // The return left its follow-up job, due a minute later, in the same transaction as the mark.
    const { rows: jobs } = await pool.query(
      `SELECT extract(epoch FROM start_after - created_on) AS delay FROM pgboss.job
       WHERE name = 'payments.confirm' AND data->>'paymentId' = $1`,
      [checkout.paymentId],
    )
    expect(jobs).toHaveLength(1)
    expect(Number(jobs[0].delay)).toBeGreaterThanOrEqual(55)
    // The job runs: paid once, the same capture; running it again changes nothing.
    expect(await confirmPendingPayment(system, checkout.paymentId)).toBe('paid')
    expect(await confirmPendingPayment(system, checkout.paymentId)).toBe('unchanged')
    const after = await state(quoted)
    expect(after).toMatchObject({ invoice: 'paid', invoicePays: 1, payments: [{ status: 'succeeded' }] })
    if (provider === 'paypal') expect(standIn.captureCount(after.rows[0]?.providerRef ?? '')).toBe(1)
  }
})

test('"being confirmed" lasts 30 minutes at most: a customer who did not pay after all may pay again', async () => {
  standIn.webhookUrl = null
  const quoted = await quote()
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'stripe' })
  // Back from Stripe's page without paying (a crafted return): still pending at the provider.
  expect((await confirmReturn(system, { provider: 'stripe', paymentId: checkout.paymentId })).status).toBe(
    'pending',
  )
  const owner = { kind: 'request', id: quoted.requestId } as const
  expect(await getPaymentPanel(orders.as(ana), owner)).toMatchObject({ beingConfirmed: true, canPay: false })
  await db
    .update(payments)
    .set({ returnedAt: new Date(Date.now() - (BEING_CONFIRMED_MINUTES + 1) * 60_000) })
    .where(eq(payments.id, checkout.paymentId))
  expect(await getPaymentPanel(orders.as(ana), owner)).toMatchObject({ beingConfirmed: false, canPay: true })
  expect(
    (await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'paypal' })).reused,
  ).toBe(false)
})

test('PayPal: a capture denied and then one completed on the same order keeps the completed capture (the one a refund targets)', async () => {
  const quoted = await quote()
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'paypal' })
  const [row] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  const providerRef = row?.providerRef ?? ''
  const report = { providerRef, amountJpy: quoted.totalJpy, currency: 'JPY', invoiceId: quoted.invoiceId }
  expect(
    (
      await settlePayment(
        system,
        'paypal',
        { ...report, status: 'failed', captureRef: 'DENIED-1' },
        'webhook',
      )
    ).result,
  ).toBe('failed')
  expect(
    (
      await settlePayment(
        system,
        'paypal',
        { ...report, status: 'succeeded', captureRef: 'DONE-2' },
        'webhook',
      )
    ).result,
  ).toBe('paid')
  const [paid] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  expect(paid).toMatchObject({ status: 'succeeded', captureRef: 'DONE-2' })
  // The denied capture is in the payment's history, not on the payment.
  const history = await db
    .select({ event: orderEvents.event, data: orderEvents.data })
    .from(orderEvents)
    .where(eq(orderEvents.entityId, checkout.paymentId))
  expect(history.find((entry) => entry.event === 'fail')?.data).toMatchObject({ captureRef: 'DENIED-1' })
})
