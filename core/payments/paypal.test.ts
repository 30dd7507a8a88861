import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import {
  type PaymentStandIn,
  STAND_IN_CREDENTIALS,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import { createPayPalProvider, type PayPalConfig } from './paypal.ts'
import type { CheckoutInput } from './provider.ts'

let standIn: PaymentStandIn
beforeAll(async () => {
  standIn = await startPaymentStandIn()
})
afterEach(() => standIn.resetControls())
afterAll(() => standIn.close())

const paypal = (config: Partial<PayPalConfig> = {}) =>
  createPayPalProvider({ ...STAND_IN_CREDENTIALS.paypal, apiUrl: standIn.url, timeoutMs: 2000, ...config })

let invoices = 0
function checkout(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  invoices += 1
  return {
    invoiceId: randomUUID(),
    invoiceNumber: `INV-2026-${String(invoices).padStart(5, '0')}`,
    amountJpy: 12_345,
    description: 'Purchase request PR-000123: 2 items',
    returnUrl: 'http://localhost:3000/user-dashboard/payments/p1/return',
    cancelUrl: 'http://localhost:3000/user-dashboard/payments/p1/cancel',
    locale: 'es',
    idempotencyKey: randomUUID(),
    ...overrides,
  }
}

const down = { name: 'AppError', code: 'upstream_failed', details: { reason: 'paymentProviderDown' } }
const refused = { name: 'AppError', code: 'upstream_failed', details: { reason: 'paymentRefused' } }
const lastCall = (path: string) => standIn.calls.filter((call) => call.path === path).at(-1)

test('an order in whole yen, our invoice ids and the request id; the same key gives the same order', async () => {
  const provider = paypal()
  const input = checkout()
  const first = await provider.createCheckout(input)
  const call = lastCall('/v2/checkout/orders')
  expect(call?.headers['paypal-request-id']).toBe(input.idempotencyKey)
  expect(call?.headers.authorization).toMatch(/^Bearer A21AA/)
  expect(JSON.parse(call?.body ?? '')).toEqual({
    intent: 'CAPTURE',
    purchase_units: [
      {
        invoice_id: input.invoiceNumber,
        custom_id: input.invoiceId,
        description: input.description,
        amount: { currency_code: 'JPY', value: '12345' },
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: input.returnUrl,
          cancel_url: input.cancelUrl,
          locale: 'es-MX',
          user_action: 'PAY_NOW',
          shipping_preference: 'NO_SHIPPING',
          landing_page: 'NO_PREFERENCE',
        },
      },
    },
  })
  expect(first.payUrl).toBe(`${standIn.url}/pay/${first.providerRef}`)

  const again = await provider.createCheckout(input)
  expect(again).toEqual(first)
  const other = await provider.createCheckout({ ...input, idempotencyKey: randomUUID(), locale: 'en' })
  expect(other.providerRef).not.toBe(first.providerRef)
  expect(
    JSON.parse(lastCall('/v2/checkout/orders')?.body ?? '').payment_source.paypal.experience_context.locale,
  ).toBe('en-US')
})

test('approved on the pay page, confirm captures: succeeded with the amount, currency and invoice', async () => {
  const provider = paypal()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  const back = await submitPayPage(payUrl, 'Approve payment')
  expect(back.status).toBe(303)
  const returned = new URL(back.location ?? '')
  expect(`${returned.origin}${returned.pathname}`).toBe(input.returnUrl)
  expect(returned.searchParams.get('token')).toBe(providerRef)
  expect(returned.searchParams.get('PayerID')).toMatch(/^[A-Z0-9]{13}$/)

  const outcome = await provider.confirm(providerRef)
  expect(outcome).toEqual({
    providerRef,
    status: 'succeeded',
    captureRef: expect.stringMatching(/^[A-Z0-9]{17}$/),
    amountJpy: 12_345,
    currency: 'JPY',
    invoiceId: input.invoiceId,
  })
  expect(lastCall(`/v2/checkout/orders/${providerRef}/capture`)?.headers['paypal-request-id']).toBe(
    `capture-${providerRef}`,
  )
})

test('confirming twice gives the same outcome and one capture, also once PayPal has forgotten the request id', async () => {
  const provider = paypal()
  const { providerRef, payUrl } = await provider.createCheckout(checkout())
  await submitPayPage(payUrl, 'Approve payment')
  const first = await provider.confirm(providerRef)
  expect(await provider.confirm(providerRef)).toEqual(first)
  expect(standIn.captureCount(providerRef)).toBe(1)

  // Hours later the id is gone: PayPal answers ORDER_ALREADY_CAPTURED, and the order is read.
  standIn.forgetRequestIds()
  expect(await provider.confirm(providerRef)).toEqual(first)
  expect(standIn.captureCount(providerRef)).toBe(1)
  expect(lastCall(`/v2/checkout/orders/${providerRef}`)?.method).toBe('GET')
})

test('confirm before approval is pending; after approval it captures even though PayPal keeps its first refusal', async () => {
  const provider = paypal()
  const { providerRef, payUrl } = await provider.createCheckout(checkout())
  expect(await provider.confirm(providerRef)).toMatchObject({
    status: 'pending',
    captureRef: null,
    amountJpy: 12_345,
  })
  expect(standIn.captureCount(providerRef)).toBe(0)

  await submitPayPage(payUrl, 'Approve payment')
  expect(await provider.confirm(providerRef)).toMatchObject({ status: 'succeeded', amountJpy: 12_345 })
  expect(lastCall(`/v2/checkout/orders/${providerRef}/capture`)?.headers['paypal-request-id']).toBe(
    `capture-${providerRef}-approved`,
  )
  expect(await provider.confirm(providerRef)).toMatchObject({ status: 'succeeded' })
  expect(standIn.captureCount(providerRef)).toBe(1)
})

test('cancelled on the pay page: back to the cancel URL with the token, and still pending', async () => {
  const provider = paypal()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  const back = await submitPayPage(payUrl, 'Cancel and return')
  expect(back.location).toBe(`${input.cancelUrl}?token=${providerRef}`)
  expect(await provider.lookup(providerRef)).toMatchObject({ status: 'pending', captureRef: null })
})

test('declined: the capture is denied (failed, with its capture id), or refused INSTRUMENT_DECLINED (failed)', async () => {
  const provider = paypal()
  const denied = await provider.createCheckout(checkout())
  await submitPayPage(denied.payUrl, 'Decline')
  expect(await provider.confirm(denied.providerRef)).toMatchObject({
    status: 'failed',
    captureRef: expect.any(String),
    currency: 'JPY',
  })

  standIn.paypalDecline = 'instrument-declined'
  const refusedOrder = await provider.createCheckout(checkout())
  await submitPayPage(refusedOrder.payUrl, 'Decline')
  expect(await provider.confirm(refusedOrder.providerRef)).toMatchObject({
    status: 'failed',
    captureRef: null,
  })
  expect(standIn.captureCount(refusedOrder.providerRef)).toBe(0)
})

test('an invoice number PayPal has already been paid for is not captured twice', async () => {
  const provider = paypal()
  const input = checkout()
  const paid = await provider.createCheckout(input)
  const second = await provider.createCheckout({ ...input, idempotencyKey: randomUUID() })
  await submitPayPage(paid.payUrl, 'Approve payment')
  await submitPayPage(second.payUrl, 'Approve payment')
  expect(await provider.confirm(paid.providerRef)).toMatchObject({ status: 'succeeded' })
  expect(await provider.confirm(second.providerRef)).toMatchObject({ status: 'failed', captureRef: null })
})

test('lookup reads without capturing', async () => {
  const provider = paypal()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  await submitPayPage(payUrl, 'Approve payment')
  expect(await provider.lookup(providerRef)).toEqual({
    providerRef,
    status: 'pending',
    captureRef: null,
    amountJpy: 12_345,
    currency: 'JPY',
    invoiceId: input.invoiceId,
  })
  expect(standIn.captureCount(providerRef)).toBe(0)
  const captured = await provider.confirm(providerRef)
  expect(await provider.lookup(providerRef)).toEqual(captured)
})

test('another captured amount or currency is reported as PayPal reports it', async () => {
  const provider = paypal()
  const less = await provider.createCheckout(checkout())
  await submitPayPage(less.payUrl, 'Approve payment')
  standIn.overrideAmount = { amount: 999, currency: 'JPY' }
  expect(await provider.confirm(less.providerRef)).toMatchObject({
    status: 'succeeded',
    amountJpy: 999,
    currency: 'JPY',
  })

  const dollars = await provider.createCheckout(checkout())
  await submitPayPage(dollars.payUrl, 'Approve payment')
  standIn.overrideAmount = { amount: 12.5, currency: 'USD' }
  expect(await provider.confirm(dollars.providerRef)).toMatchObject({
    status: 'succeeded',
    amountJpy: null,
    currency: 'USD',
  })
  const webhook = standIn.webhooks.at(-1)
  expect(webhook?.type).toBe('PAYMENT.CAPTURE.COMPLETED')
  expect((await provider.verifyWebhook(webhook?.headers ?? {}, webhook?.body ?? ''))?.outcome).toMatchObject({
    amountJpy: null,
    currency: 'USD',
  })
})

test('webhooks: approval and capture are verified by postback and become outcomes', async () => {
  const provider = paypal()
  const input = checkout()
  const { providerRef, payUrl } = await provider.createCheckout(input)
  await submitPayPage(payUrl, 'Approve payment')
  const approved = standIn.webhooks.at(-1)
  expect(approved?.type).toBe('CHECKOUT.ORDER.APPROVED')
  expect(await provider.verifyWebhook(approved?.headers ?? {}, approved?.body ?? '')).toEqual({
    eventId: approved?.eventId,
    type: 'CHECKOUT.ORDER.APPROVED',
    outcome: {
      providerRef,
      status: 'pending',
      captureRef: null,
      amountJpy: 12_345,
      currency: 'JPY',
      invoiceId: input.invoiceId,
    },
  })

  const captured = await provider.confirm(providerRef)
  const completed = standIn.webhooks.at(-1)
  expect(completed?.type).toBe('PAYMENT.CAPTURE.COMPLETED')
  const verified = await provider.verifyWebhook(completed?.headers ?? {}, completed?.body ?? '')
  expect(verified).toEqual({
    eventId: completed?.eventId,
    type: 'PAYMENT.CAPTURE.COMPLETED',
    outcome: captured,
  })
  const verify = lastCall('/v1/notifications/verify-webhook-signature')
  expect(JSON.parse(verify?.body ?? '')).toMatchObject({
    webhook_id: STAND_IN_CREDENTIALS.paypal.webhookId,
    transmission_id: completed?.headers['paypal-transmission-id'],
    webhook_event: { id: completed?.eventId },
  })

  // Header names in any case; a redelivery has the same event id.
  const upper = Object.fromEntries(
    Object.entries(completed?.headers ?? {}).map(([k, v]) => [k.toUpperCase(), v]),
  )
  expect((await provider.verifyWebhook(upper, completed?.body ?? ''))?.eventId).toBe(completed?.eventId)
  const replay = await standIn.replayLastWebhook({ resign: true })
  expect((await provider.verifyWebhook(replay.headers, replay.body))?.eventId).toBe(completed?.eventId)
})

test('webhooks: denied capture is failed; other event types are verified and ignored', async () => {
  const provider = paypal()
  const { providerRef, payUrl } = await provider.createCheckout(checkout())
  await submitPayPage(payUrl, 'Decline')
  await provider.confirm(providerRef)
  const denied = standIn.webhooks.at(-1)
  expect(denied?.type).toBe('PAYMENT.CAPTURE.DENIED')
  expect((await provider.verifyWebhook(denied?.headers ?? {}, denied?.body ?? ''))?.outcome).toMatchObject({
    providerRef,
    status: 'failed',
  })

  const refund = await standIn.sendWebhook('paypal', 'PAYMENT.CAPTURE.REFUNDED', {
    id: 'R1',
    status: 'COMPLETED',
  })
  expect(await provider.verifyWebhook(refund.headers, refund.body)).toEqual({
    eventId: refund.eventId,
    type: 'PAYMENT.CAPTURE.REFUNDED',
    outcome: null,
  })
})

test('webhooks: forged, tampered, incomplete or for another webhook id are refused, saying why', async () => {
  const provider = paypal()
  const { providerRef, payUrl } = await provider.createCheckout(checkout())
  await submitPayPage(payUrl, 'Approve payment')
  await provider.confirm(providerRef)
  const real = standIn.webhooks.at(-1)
  if (!real) throw new Error('no webhook')

  const forged = await standIn.sendForgedWebhook('paypal')
  expect(await provider.verifyWebhook(forged.headers, forged.body)).toEqual({ refused: 'signature' })
  const tampered = real.body.replace('"value":"12345"', '"value":"99999"')
  expect(tampered).not.toBe(real.body)
  expect(await provider.verifyWebhook(real.headers, tampered)).toEqual({ refused: 'signature' })
  expect(await paypal({ webhookId: 'WH-SOMEONE-ELSE' }).verifyWebhook(real.headers, real.body)).toEqual({
    refused: 'signature',
  })

  const calls = standIn.calls.length
  const { 'paypal-transmission-sig': _, ...unsigned } = real.headers
  expect(await provider.verifyWebhook(unsigned, real.body)).toEqual({ refused: 'unsigned' })
  expect(await provider.verifyWebhook(real.headers, 'not json')).toEqual({ refused: 'unreadable' })
  expect(standIn.calls.length).toBe(calls)
})

test('webhooks: when PayPal cannot be asked, verification throws instead of answering null', async () => {
  const provider = paypal()
  const { providerRef, payUrl } = await provider.createCheckout(checkout())
  await submitPayPage(payUrl, 'Approve payment')
  const approved = standIn.webhooks.at(-1)
  standIn.down = 'error'
  await expect(provider.verifyWebhook(approved?.headers ?? {}, approved?.body ?? '')).rejects.toMatchObject(
    down,
  )
  standIn.down = false
  expect(await provider.lookup(providerRef)).toMatchObject({ status: 'pending' })
})

test('one access token serves every call until it expires; a revoked token is replaced once', async () => {
  const provider = paypal()
  const tokenCalls = () => standIn.calls.filter((call) => call.path === '/v1/oauth2/token').length
  const before = tokenCalls()
  const { providerRef } = await provider.createCheckout(checkout())
  await Promise.all([
    provider.lookup(providerRef),
    provider.lookup(providerRef),
    provider.confirm(providerRef),
  ])
  expect(tokenCalls()).toBe(before + 1)
  expect(lastCall('/v1/oauth2/token')?.body).toBe('grant_type=client_credentials')

  standIn.expireTokens()
  expect(await provider.lookup(providerRef)).toMatchObject({ status: 'pending' })
  expect(tokenCalls()).toBe(before + 2)

  // An expires_in PayPal gives is honoured (with a minute's margin) by the clock.
  let now = Date.now()
  const clocked = paypal({ now: () => now })
  await clocked.lookup(providerRef)
  now += 32_400_000 - 30_000
  await clocked.lookup(providerRef)
  expect(tokenCalls()).toBe(before + 4)
})

test('provider down, failing, unreachable or too slow: paymentProviderDown', async () => {
  const provider = paypal({ timeoutMs: 300 })
  const { providerRef } = await provider.createCheckout(checkout())

  standIn.down = 'error'
  await expect(provider.createCheckout(checkout())).rejects.toMatchObject(down)
  standIn.down = false

  standIn.failNext(1)
  await expect(provider.lookup(providerRef)).rejects.toMatchObject(down)
  expect(await provider.lookup(providerRef)).toMatchObject({ status: 'pending' })
  standIn.failNext(1, 429)
  await expect(provider.lookup(providerRef)).rejects.toMatchObject(down)

  standIn.delayMs = 800
  const slow = await provider.lookup(providerRef).catch((error: Error) => error)
  expect(slow).toMatchObject(down)
  expect((slow as Error).message).toMatch(/no answer within 300 ms/)
  standIn.delayMs = 0

  standIn.down = 'hang'
  await expect(provider.confirm(providerRef)).rejects.toMatchObject(down)
  standIn.down = false

  await expect(paypal({ apiUrl: 'http://127.0.0.1:9' }).lookup(providerRef)).rejects.toMatchObject(down)
})

test('refusals are paymentRefused and name no secret; bad arguments are invalid and call nobody', async () => {
  const wrong = paypal({ clientSecret: 'not-the-secret' })
  const error = await wrong.createCheckout(checkout()).catch((caught: Error) => caught)
  expect(error).toMatchObject(refused)
  expect((error as Error).message).toMatch(/invalid_client/)
  expect((error as Error).message).not.toMatch(/not-the-secret|stand-in-paypal-client/)

  const provider = paypal()
  const unknown = await provider.lookup('0ABCDEFGHIJKLMNOP').catch((caught: Error) => caught)
  expect(unknown).toMatchObject(refused)
  expect((unknown as Error).message).toMatch(/404.*RESOURCE_NOT_FOUND INVALID_RESOURCE_ID debug_id/)

  const calls = standIn.calls.length
  await expect(provider.lookup('../v1/oauth2/token')).rejects.toMatchObject({ code: 'invalid' })
  for (const amountJpy of [0, -5, 10.5, Number.NaN]) {
    await expect(provider.createCheckout(checkout({ amountJpy }))).rejects.toMatchObject({ code: 'invalid' })
  }
  await expect(provider.createCheckout(checkout({ returnUrl: 'javascript:alert(1)' }))).rejects.toMatchObject(
    {
      code: 'invalid',
    },
  )
  expect(standIn.calls.length).toBe(calls)
})
