import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createJobQueue } from '#core/jobs/job-queue.ts'
import { JOBS } from '#core/jobs/registry.ts'
import { createOutboxSmsSender } from '#core/notifications/sms.ts'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { insertPasswordAccount, TEST_APP_URL, TEST_AUTH_SECRET } from '#tests/support/accounts.ts'
import { createTestFileStore } from '#tests/support/file-store.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { type PaymentStandIn, startPaymentStandIn, submitPayPage } from '#tests/support/payment-stand-in.ts'
import { createApp } from './app.ts'
import { createLogger } from './logger.ts'

// The webhook routes inside the whole Express app, as `npm start` mounts them: the body reaches
// the signature check byte for byte (no JSON or form parser before it), no origin or session
// check stands in the way, and the answers are what providers act on (200, 400, 404).

let standIn: PaymentStandIn
let base: string
let pool: Awaited<ReturnType<typeof createTestDatabase>>['pool']

beforeAll(async () => {
  const database = await createTestDatabase()
  pool = database.pool
  const noop = async () => {}
  const jobs = createJobQueue({
    pool,
    jobs: JOBS,
    handlers: {
      'contact.forward': noop,
      'email.send': noop,
      'notification.email': noop,
      'notification.staff-email': noop,
      'jobs.prune-effects': noop,
      'payments.reconcile': noop,
      'orders.expire-quotes': noop,
      'storage.remind': noop,
    },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    schedules: false,
    work: false,
  })
  await jobs.start()
  onFileCleanup(() => jobs.stop({ timeoutMs: 1000 }))
  standIn = await startPaymentStandIn()
  const { app } = createApp({
    db: database.db,
    contactForwarding: { accessKey: null, endpoint: 'http://127.0.0.1:9/forward' },
    accounts: {
      secret: TEST_AUTH_SECRET,
      adminEmails: [],
      google: null,
      sms: createOutboxSmsSender({ db: database.db }),
      rateLimitFactor: 1,
    },
    jobs,
    files: createTestFileStore(),
    payments: paymentProvidersFromEnv(standIn.env),
    thirdParty: { reviewsWidgetId: null, instagramWidgetId: null, scriptUrl: 'https://widgets.example/x.js' },
    logger: createLogger('silent'),
    checkDatabase: async () => {},
    isProduction: false,
    appUrl: TEST_APP_URL,
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  standIn.webhookUrl = `${base}/api/payments/webhooks/`
  onFileCleanup(() => new Promise((resolve) => server.close(() => resolve())))
})
afterAll(() => standIn.close())

test('a signed webhook through the app pays the invoice; its replay is 200 and changes nothing; a forgery is 400', async () => {
  const ana = await insertPasswordAccount(pool, { email: 'ana.webhook@example.com', name: 'Ana' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const { rows } = await pool.query(
    `INSERT INTO payments (invoice_id, provider, requested_jpy) VALUES ($1, 'stripe', $2) RETURNING id`,
    [quoted.invoiceId, quoted.totalJpy],
  )
  // A checkout made directly at the stand-in, its reference stored as the service would.
  const [stripe] = paymentProvidersFromEnv(standIn.env).filter((provider) => provider.name === 'stripe')
  const checkout = await stripe?.createCheckout({
    invoiceId: quoted.invoiceId,
    invoiceNumber: quoted.invoiceNumber,
    amountJpy: quoted.totalJpy,
    description: 'x',
    returnUrl: `${TEST_APP_URL}/payments/return/stripe?payment=${rows[0].id}`,
    cancelUrl: `${TEST_APP_URL}/payments/cancel/stripe?payment=${rows[0].id}`,
    locale: 'en',
    idempotencyKey: rows[0].id,
  })
  if (!checkout) throw new Error('no checkout')
  await pool.query('UPDATE payments SET provider_ref = $2, pay_url = $3 WHERE id = $1', [
    rows[0].id,
    checkout.providerRef,
    checkout.payUrl,
  ])
  await submitPayPage(checkout.payUrl, 'Approve payment')
  await standIn.settled()
  const delivered = standIn.webhooks.at(-1)
  expect(delivered).toMatchObject({ type: 'checkout.session.completed', status: 200 })
  const status = async () =>
    (await pool.query('SELECT status FROM purchase_requests WHERE id = $1', [quoted.requestId])).rows[0]
      ?.status
  expect(await status()).toBe('paid')

  const events = async () => (await pool.query('SELECT count(*)::int AS n FROM webhook_events')).rows[0]?.n
  const before = await events()
  // Sent as a form and as text too: the body still arrives untouched.
  for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
    const answer = await fetch(`${base}/api/payments/webhooks/stripe`, {
      method: 'POST',
      headers: { ...delivered?.headers, 'content-type': type, origin: 'https://evil.example' },
      body: delivered?.body,
    })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ received: true, result: 'replay' })
  }
  expect(await events()).toBe(before)

  const forged = await standIn.sendForgedWebhook('stripe')
  expect(forged.status).toBe(400)
  const forgedPayPal = await standIn.sendForgedWebhook('paypal')
  expect(forgedPayPal.status).toBe(400)
  expect(await events()).toBe(before)
  expect(await status()).toBe('paid')
})

test('unknown provider 404, GET 404, a body over 1 MB 413: nothing written', async () => {
  const events = async () => (await pool.query('SELECT count(*)::int AS n FROM webhook_events')).rows[0]?.n
  const before = await events()
  const unknown = await fetch(`${base}/api/payments/webhooks/mercadopago`, { method: 'POST', body: '{}' })
  expect(unknown.status).toBe(404)
  const get = await fetch(`${base}/api/payments/webhooks/stripe`)
  expect(get.status).toBe(404)
  const large = await fetch(`${base}/api/payments/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"x":"${'a'.repeat(1_100_000)}"}`,
  })
  expect(large.status).toBe(413)
  expect(await events()).toBe(before)
})
