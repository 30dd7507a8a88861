import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createOutboxSmsSender } from '#core/notifications/sms.ts'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { insertPasswordAccount, TEST_APP_URL, TEST_AUTH_SECRET } from '#tests/support/accounts.ts'
import { createTestFileStore } from '#tests/support/file-store.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import {
  type PaymentStandIn,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import { createApp } from './app.ts'

// The webhook routes inside the whole Express app, as `npm start` mounts them: the body reaches
// the signature check byte for byte (no JSON or form parser before it), no origin or session
// check stands in the way, and the answers are what providers act on (200, 400, 404).

let standIn: PaymentStandIn
let base: string
/** What the app logged, one object per line. */
const logged: { level: number; msg: string; [key: string]: unknown }[] = []
let pool: Awaited<ReturnType<typeof createTestDatabase>>['pool']

beforeAll(async () => {
  const database = await createTestDatabase()
  pool = database.pool
  const jobs = await startTestJobQueue(pool)
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
    logger: pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) }),
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

test('the log: a refused webhook is one warning saying why, a held payment one warning, a cross-origin form post one warning without a stack', async () => {
  const from = logged.length
  const forged = await standIn.sendForgedWebhook('stripe')
  expect(forged.status).toBe(400)
  const refused = logged.slice(from).filter((line) => line.msg === 'payment webhook refused')
  expect(refused).toHaveLength(1)
  expect(refused[0]).toMatchObject({ level: 40, provider: 'stripe' })
  expect(String(refused[0]?.why)).toContain('signature')

  // Money taken that is not the quote's: held for staff, and said so in the log.
  const ana = await insertPasswordAccount(pool, { email: 'ana.held@example.com', name: 'Ana' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const { rows } = await pool.query(
    `INSERT INTO payments (invoice_id, provider, requested_jpy) VALUES ($1, 'stripe', $2) RETURNING id`,
    [quoted.invoiceId, quoted.totalJpy],
  )
  const [stripe] = paymentProvidersFromEnv(standIn.env).filter((provider) => provider.name === 'stripe')
  const checkout = await stripe?.createCheckout({
    invoiceId: quoted.invoiceId,
    invoiceNumber: quoted.invoiceNumber,
    amountJpy: quoted.totalJpy + 1,
    description: 'x',
    returnUrl: `${TEST_APP_URL}/payments/return/stripe?payment=${rows[0].id}`,
    cancelUrl: `${TEST_APP_URL}/payments/cancel/stripe?payment=${rows[0].id}`,
    locale: 'en',
    idempotencyKey: rows[0].id,
  })
  if (!checkout) throw new Error('no checkout')
  await pool.query('UPDATE payments SET provider_ref = $2 WHERE id = $1', [rows[0].id, checkout.providerRef])
  await submitPayPage(checkout.payUrl, 'Approve payment')
  await standIn.settled()
  expect(logged.slice(from).filter((line) => line.msg === 'payment held for staff review')).toEqual([
    expect.objectContaining({ level: 40, paymentId: rows[0].id, result: 'held' }),
  ])

  const crossSite = await fetch(`${base}/contact`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
      cookie: 'lang=en',
    },
    body: new URLSearchParams({ name: 'x', email: 'x@example.com', message: 'hello' }),
  })
  expect(crossSite.status).toBe(403)
  expect(await crossSite.text()).toBe('This form can only be sent from our own pages.')
  const crossLines = logged.slice(from).filter((line) => line.msg === 'cross-origin form post refused')
  expect(crossLines).toEqual([expect.objectContaining({ level: 40, origin: 'https://evil.example' })])
  expect(crossLines[0]).not.toHaveProperty('err')
  // Nothing of this is an error.
  expect(logged.slice(from).filter((line) => line.level >= 50)).toEqual([])
})
