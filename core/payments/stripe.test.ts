import { createHmac, randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import {
  type PaymentStandIn,
  STAND_IN_CREDENTIALS,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import type { CheckoutInput } from './provider.ts'
import { createStripeProvider, type StripeConfig } from './stripe.ts'

let standIn: PaymentStandIn
beforeAll(async () => {
  standIn = await startPaymentStandIn()
})
afterEach(() => standIn.resetControls())
afterAll(() => standIn.close())

const stripe = (config: Partial<StripeConfig> = {}) =>
  createStripeProvider({ ...STAND_IN_CREDENTIALS.stripe, apiUrl: standIn.url, timeoutMs: 2000, ...config })

function checkout(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    invoiceId: randomUUID(),
    invoiceNumber: 'INV-2026-00042',
    amountJpy: 12_345,
    description: 'Purchase request PR-000123: 2 items',
    returnUrl: 'http://localhost:3000/user-dashboard/payments/p1/return?from=stripe',
    cancelUrl: 'http://localhost:3000/user-dashboard/payments/p1/cancel',
    locale: 'es',
    idempotencyKey: randomUUID(),
    ...overrides,
  }
}

const down = { name: 'AppError', code: 'upstream_failed', details: { reason: 'paymentProviderDown' } }
const refused = { name: 'AppError', code: 'upstream_failed', details: { reason: 'paymentRefused' } }
const createCalls = () => standIn.calls.filter((call) => call.path === '/v1/checkout/sessions')

test('a session in whole yen with our invoice ids and the idempotency key; the same key gives the same session', async () => {
  const provider = stripe()
  const input = checkout()
  const first = await provider.createCheckout(input)
  const call = createCalls().at(-1)
  expect(call?.headers.authorization).toBe(`Bearer ${STAND_IN_CREDENTIALS.stripe.secretKey}`)
  expect(call?.headers['idempotency-key']).toBe(input.idempotencyKey)
  expect(call?.headers['content-type']).toBe('application/x-www-form-urlencoded')
  expect(Object.fromEntries(new URLSearchParams(call?.body))).toEqual({
    mode: 'payment',
    'line_items[0][price_data][currency]': 'jpy',
    'line_items[0][price_data][unit_amount]': '12345',
    'line_items[0][price_data][product_data][name]': input.description,
    'line_items[0][quantity]': '1',
    client_reference_id: input.invoiceId,
    'metadata[invoice_id]': input.invoiceId,
    'metadata[invoice_number]': input.invoiceNumber,
    'payment_intent_data[metadata][invoice_id]': input.invoiceId,
    'payment_intent_data[metadata][invoice_number]': input.invoiceNumber,
    success_url: `${input.returnUrl}&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: input.cancelUrl,
    locale: 'es-419',
  })
  expect(first.providerRef).toMatch(/^cs_test_/)
  expect(first.payUrl).toBe(`${standIn.url}/pay/${first.providerRef}`)

  expect(await provider.createCheckout(input)).toEqual(first)
  // The same key with other parameters is Stripe's idempotency_error: a bug on our side, not an outage.
  const error = await provider.createCheckout({ ...input, amountJpy: 1 }).catch((caught: Error) => caught)
  expect(error).toMatchObject(refused)
  expect((error as Error).message).toMatch(/400: idempotency_error/)

  await provider.createCheckout(checkout({ locale: 'en', returnUrl: 'http://localhost:3000/back#top' }))
  const english = new URLSearchParams(createCalls().at(-1)?.body)
  expect(english.get('locale')).toBe('en')
  expect(english.get('success_url')).toBe('http://localhost:3000/back?session_id={CHECKOUT_SESSION_ID}#top')
})

test('paid on the pay page: back to the success URL with the session id, confirm says succeeded', async () => {
  const provider = stripe()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  expect(await provider.confirm(providerRef)).toMatchObject({ status: 'pending', captureRef: null })

  const back = await submitPayPage(payUrl, 'Approve payment')
  expect(back).toEqual({ status: 303, location: `${input.returnUrl}&session_id=${providerRef}` })
  const outcome = await provider.confirm(providerRef)
  expect(outcome).toEqual({
    providerRef,
    status: 'succeeded',
    captureRef: expect.stringMatching(/^pi_/),
    amountJpy: 12_345,
    currency: 'JPY',
    invoiceId: input.invoiceId,
  })
  expect(await provider.confirm(providerRef)).toEqual(outcome)
  expect(await provider.lookup(providerRef)).toEqual(outcome)
})

test('declined: the session ends unpaid (failed) and the customer goes to the cancel URL', async () => {
  const provider = stripe()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  expect(await submitPayPage(payUrl, 'Decline')).toEqual({ status: 303, location: input.cancelUrl })
  expect(await provider.confirm(providerRef)).toMatchObject({
    status: 'failed',
    captureRef: null,
    amountJpy: 12_345,
  })
  const expired = standIn.webhooks.at(-1)
  expect(expired?.type).toBe('checkout.session.expired')
  expect((await provider.verifyWebhook(expired?.headers ?? {}, expired?.body ?? ''))?.outcome).toMatchObject({
    providerRef,
    status: 'failed',
  })
})

test('cancelled: back to the cancel URL, still pending', async () => {
  const provider = stripe()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  expect(await submitPayPage(payUrl, 'Cancel and return')).toEqual({ status: 303, location: input.cancelUrl })
  expect(await provider.lookup(providerRef)).toMatchObject({ status: 'pending' })
})

test('another amount or currency is reported as Stripe reports it', async () => {
  const provider = stripe()
  const less = await provider.createCheckout(checkout())
  standIn.overrideAmount = { amount: 999, currency: 'jpy' }
  await submitPayPage(less.payUrl, 'Approve payment')
  expect(await provider.confirm(less.providerRef)).toMatchObject({
    status: 'succeeded',
    amountJpy: 999,
    currency: 'JPY',
  })

  const dollars = await provider.createCheckout(checkout())
  standIn.overrideAmount = { amount: 12.5, currency: 'usd' }
  await submitPayPage(dollars.payUrl, 'Approve payment')
  expect(await provider.confirm(dollars.providerRef)).toMatchObject({
    status: 'succeeded',
    amountJpy: null,
    currency: 'USD',
  })
})

test('webhooks: checkout.session.completed verified into the same outcome; a duplicate keeps its event id', async () => {
  const provider = stripe()
  const { providerRef, payUrl } = await provider.createCheckout(checkout())
  await submitPayPage(payUrl, 'Approve payment')
  const completed = standIn.webhooks.at(-1)
  expect(completed?.type).toBe('checkout.session.completed')
  expect(await provider.verifyWebhook(completed?.headers ?? {}, completed?.body ?? '')).toEqual({
    eventId: completed?.eventId,
    type: 'checkout.session.completed',
    outcome: await provider.lookup(providerRef),
  })
  const replay = await standIn.replayLastWebhook()
  expect(replay.body).toBe(completed?.body)
  expect((await provider.verifyWebhook(replay.headers, replay.body))?.eventId).toBe(completed?.eventId)
})

test('webhooks: asynchronous payments end in async_payment_succeeded or _failed; other types are ignored', async () => {
  const provider = stripe()
  const { providerRef } = await provider.createCheckout(checkout())
  const session = { ...standIn.session(providerRef), status: 'complete', payment_status: 'unpaid' }
  const completed = await standIn.sendWebhook('stripe', 'checkout.session.completed', session)
  expect((await provider.verifyWebhook(completed.headers, completed.body))?.outcome?.status).toBe('pending')
  const failed = await standIn.sendWebhook('stripe', 'checkout.session.async_payment_failed', session)
  expect((await provider.verifyWebhook(failed.headers, failed.body))?.outcome?.status).toBe('failed')
  const paid = await standIn.sendWebhook('stripe', 'checkout.session.async_payment_succeeded', {
    ...session,
    payment_status: 'paid',
    payment_intent: 'pi_123',
  })
  expect((await provider.verifyWebhook(paid.headers, paid.body))?.outcome).toMatchObject({
    providerRef,
    status: 'succeeded',
    captureRef: 'pi_123',
  })
  const refund = await standIn.sendWebhook('stripe', 'charge.refunded', { id: 'ch_1', object: 'charge' })
  expect(await provider.verifyWebhook(refund.headers, refund.body)).toEqual({
    eventId: refund.eventId,
    type: 'charge.refunded',
    outcome: null,
  })
})

test('webhooks: forged, tampered, stale, future or unsigned deliveries are refused, saying why', async () => {
  const provider = stripe()
  const { payUrl } = await provider.createCheckout(checkout())
  await submitPayPage(payUrl, 'Approve payment')
  const real = standIn.webhooks.at(-1)
  if (!real) throw new Error('no webhook')
  const headers = real.headers

  const forged = await standIn.sendForgedWebhook('stripe')
  expect(await provider.verifyWebhook(forged.headers, forged.body)).toEqual({ refused: 'signature' })
  expect(
    await provider.verifyWebhook(headers, real.body.replace('"amount_total": 12345', '"amount_total": 1')),
  ).toEqual({ refused: 'signature' })
  // Re-serialised JSON is not the body that was signed.
  expect(await provider.verifyWebhook(headers, JSON.stringify(JSON.parse(real.body)))).toEqual({
    refused: 'signature',
  })
  expect(await provider.verifyWebhook({}, real.body)).toEqual({ refused: 'unsigned' })
  expect(await provider.verifyWebhook({ 'stripe-signature': 'garbage' }, real.body)).toEqual({
    refused: 'unsigned',
  })
  expect(await stripe({ webhookSecret: 'whsec_other' }).verifyWebhook(headers, real.body)).toEqual({
    refused: 'signature',
  })

  const sixMinutes = 6 * 60 * 1000
  expect(await stripe({ now: () => Date.now() + sixMinutes }).verifyWebhook(headers, real.body)).toEqual({
    refused: 'stale',
  })
  expect(await stripe({ now: () => Date.now() - sixMinutes }).verifyWebhook(headers, real.body)).toEqual({
    refused: 'stale',
  })
  expect(
    (await stripe({ now: () => Date.now() + 4 * 60 * 1000 }).verifyWebhook(headers, real.body)).eventId,
  ).toBe(real.eventId)

  // Secret rotation: Stripe signs with each secret; one matching v1 is enough.
  const t = /t=(\d+)/.exec(headers['stripe-signature'] ?? '')?.[1]
  const other = createHmac('sha256', 'whsec_old').update(`${t}.${real.body}`).digest('hex')
  const both = { 'Stripe-Signature': `${headers['stripe-signature']},v1=${other}` }
  expect((await provider.verifyWebhook(both, real.body))?.eventId).toBe(real.eventId)
})

test('Stripe down, failing, unreachable or too slow: paymentProviderDown', async () => {
  const provider = stripe({ timeoutMs: 300 })
  const { providerRef } = await provider.createCheckout(checkout())

  standIn.down = 'error'
  await expect(provider.createCheckout(checkout())).rejects.toMatchObject(down)
  standIn.down = false
  standIn.failNext(2, 500)
  await expect(provider.lookup(providerRef)).rejects.toMatchObject(down)
  await expect(provider.confirm(providerRef)).rejects.toMatchObject(down)
  expect(await provider.lookup(providerRef)).toMatchObject({ status: 'pending' })

  standIn.delayMs = 800
  await expect(provider.lookup(providerRef)).rejects.toMatchObject(down)
  standIn.delayMs = 0
  standIn.down = 'hang'
  await expect(provider.createCheckout(checkout())).rejects.toMatchObject(down)
  standIn.down = false
  await expect(stripe({ apiUrl: 'http://127.0.0.1:9' }).lookup(providerRef)).rejects.toMatchObject(down)
})

test('refusals are paymentRefused and name no secret; bad arguments are invalid and call nobody', async () => {
  const wrong = await stripe({ secretKey: 'sk_test_wrong_key' })
    .createCheckout(checkout())
    .catch((caught: Error) => caught)
  expect(wrong).toMatchObject(refused)
  expect((wrong as Error).message).not.toMatch(/sk_test/)

  const provider = stripe()
  const unknown = await provider.lookup('cs_test_nothing').catch((caught: Error) => caught)
  expect(unknown).toMatchObject(refused)
  expect((unknown as Error).message).toMatch(/404: invalid_request_error resource_missing/)

  const calls = standIn.calls.length
  await expect(provider.lookup('cs_../../v1/charges')).rejects.toMatchObject({ code: 'invalid' })
  await expect(provider.confirm('PAYPAL0RDER')).rejects.toMatchObject({ code: 'invalid' })
  await expect(provider.createCheckout(checkout({ amountJpy: 100.5 }))).rejects.toMatchObject({
    code: 'invalid',
  })
  await expect(provider.createCheckout(checkout({ idempotencyKey: '' }))).rejects.toMatchObject({
    code: 'invalid',
  })
  expect(standIn.calls.length).toBe(calls)
})
