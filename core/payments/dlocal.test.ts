import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import {
  DLOCAL_STAND_IN_CREDENTIALS,
  type DLocalStandIn,
  startDLocalStandIn,
} from '#tests/support/dlocal-stand-in/server.ts'
import {
  createDLocalProvider,
  type DLocalConfig,
  dlocalAuthorization,
  dlocalSignature,
  localMinorUnits,
  minorFromMajor,
} from './dlocal.ts'
import { localMethodsFor } from './local-methods.ts'
import { type CheckoutInput, paymentProvidersFromEnv } from './provider.ts'

// The dLocal adapter against the local stand-in, which checks every call's signature as dLocal
// does: the quote, a payment per method, reading it, notifications (forged, stale, replayed),
// refunds never above what was paid, and the environment's validation.

let standIn: DLocalStandIn
beforeAll(async () => {
  standIn = await startDLocalStandIn()
})
afterEach(() => {
  standIn.down = false
  standIn.overrideAmount = null
})
afterAll(() => standIn.stop())

const dlocal = (config: Partial<DLocalConfig> = {}) =>
  createDLocalProvider({ ...DLOCAL_STAND_IN_CREDENTIALS, apiUrl: standIn.url, timeoutMs: 2000, ...config })

function checkout(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    invoiceId: randomUUID(),
    invoiceNumber: 'INV-2026-00042',
    amountJpy: 12_345,
    description: 'Shipping receipt SH-000123',
    returnUrl: 'http://localhost:3000/payments/return/dlocal?payment=p1',
    cancelUrl: 'http://localhost:3000/payments/cancel/dlocal?payment=p1',
    locale: 'es',
    idempotencyKey: randomUUID(),
    localPayment: { country: 'MX', method: 'oxxo', payer: { name: 'Ana López', email: 'ana@example.com' } },
    notificationUrl: 'http://localhost:3000/api/payments/webhooks/dlocal',
    ...overrides,
  }
}

test('the signature is hex HMAC-SHA256 of login, date and body with the secret key', () => {
  // Known answer, computed independently (Python's hmac over 'login' + date + body with 'key').
  expect(dlocalSignature('key', 'login', '2026-01-01T00:00:00.000Z', '{}')).toBe(
    'c82d527fc10cc140448ede7946d379a548edc0efa7558cbdc2f65cb8395b019e',
  )
  const a = dlocalSignature('key', 'login', 'd', 'body')
  expect(a).toMatch(/^[0-9a-f]{64}$/)
  expect(dlocalSignature('key', 'login', 'd', 'body2')).not.toBe(a)
  expect(dlocalSignature('key2', 'login', 'd', 'body')).not.toBe(a)
  expect(dlocalAuthorization('key', 'login', 'd', 'body')).toBe(`V2-HMAC-SHA256, Signature: ${a}`)
})

test('yen become local minor units at the quote, rounded up, without float error', () => {
  expect(localMinorUnits(12_345, '0.1175', 2)).toBe(145_054) // 1450.5375 MXN → 1450.54
  expect(localMinorUnits(1000, '6.25', 0)).toBe(6250)
  expect(localMinorUnits(3, '0.1', 2)).toBe(30)
  expect(minorFromMajor(1450.54, 2)).toBe(145_054)
  expect(minorFromMajor('6250', 0)).toBe(6250)
  expect(minorFromMajor('1.005', 2)).toBeNull()
  expect(minorFromMajor('-1', 2)).toBeNull()
  // A JSON number with more digits than the currency has is not rounded into the quoted amount.
  expect(minorFromMajor(1234.499, 2)).toBeNull()
  expect(minorFromMajor(6249.6, 0)).toBeNull()
  expect(minorFromMajor(1e21, 2)).toBeNull()
  expect(minorFromMajor(6250, 0)).toBe(6250)
  expect(minorFromMajor(12.1, 2)).toBe(1210)
})

test('an OXXO voucher: in MXN at the quote, signed, with its reference, barcode, page and expiry', async () => {
  const input = checkout()
  const result = await dlocal().createCheckout(input)
  expect(result.local).toEqual({ currency: 'MXN', amountMinor: 145_054, rate: '0.1175' })
  expect(result.voucher?.reference).toMatch(/^\d{14}$/)
  expect(result.voucher?.barcode).toBeTruthy()
  expect(result.voucher?.url).toBe(`${standIn.url}/vouchers/${result.providerRef}`)
  expect(result.voucher?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 70 * 3_600_000)
  const stored = standIn.payment(result.providerRef)
  expect(stored).toMatchObject({
    amount: 1450.54,
    currency: 'MXN',
    payment_method_id: 'OX',
    order_id: input.idempotencyKey,
  })
  expect(standIn.calls.every((call) => call.refused === null)).toBe(true)
  // The same key gives the same payment back.
  expect((await dlocal().createCheckout(input)).providerRef).toBe(result.providerRef)
  const outcome = await dlocal().lookup(result.providerRef)
  expect(outcome).toMatchObject({
    status: 'pending',
    amountJpy: null,
    currency: 'MXN',
    local: { amountMinor: 145_054 },
  })
})

test('every method of every country is accepted by the stand-in with its flow', async () => {
  for (const country of ['MX', 'CL', 'CO', 'PE', 'BR'] as const) {
    for (const method of localMethodsFor(country)) {
      const result = await dlocal().createCheckout(
        checkout({
          localPayment: { country, method: method.id, payer: { name: 'Ana', email: 'ana@example.com' } },
        }),
      )
      if (method.flow === 'REDIRECT') {
        expect(result.voucher).toBeNull()
        expect(result.payUrl).toBe(`${standIn.url}/checkout/${result.providerRef}`)
      } else {
        expect(result.voucher?.reference).toBeTruthy()
      }
    }
  }
})

test('a method of another country, or none, is refused before any call', async () => {
  const before = standIn.calls.length
  await expect(
    dlocal().createCheckout(
      checkout({ localPayment: { country: 'CL', method: 'oxxo', payer: { name: 'A', email: 'a@b.c' } } }),
    ),
  ).rejects.toMatchObject({ code: 'invalid' })
  await expect(dlocal().createCheckout(checkout({ localPayment: undefined }))).rejects.toMatchObject({
    code: 'invalid',
  })
  expect(standIn.calls.length).toBe(before)
})

test('wrong credentials are refused by the stand-in: paymentRefused; a provider down: paymentProviderDown', async () => {
  await expect(dlocal({ secretKey: 'wrong' }).createCheckout(checkout())).rejects.toMatchObject({
    code: 'upstream_failed',
    details: { reason: 'paymentRefused' },
  })
  expect(standIn.calls.at(-1)?.refused).toBe('signature')
  standIn.down = true
  await expect(dlocal().createCheckout(checkout())).rejects.toMatchObject({
    details: { reason: 'paymentProviderDown' },
  })
})

test('notifications: a signed one is read; forged, unsigned, stale, another login or a bad body are refused', async () => {
  const result = await dlocal().createCheckout(checkout())
  const paid = await standIn.pay(result.providerRef)
  const verified = await dlocal().verifyWebhook(paid.headers, paid.body)
  expect(verified).toMatchObject({
    eventId: `${result.providerRef}:PAID`,
    outcome: {
      status: 'succeeded',
      captureRef: result.providerRef,
      local: { currency: 'MXN', amountMinor: 145_054 },
    },
  })
  const forged = await standIn.sendForged(result.providerRef)
  expect(await dlocal().verifyWebhook(forged.headers, forged.body)).toEqual({ refused: 'signature' })
  expect(await dlocal().verifyWebhook({}, paid.body)).toEqual({ refused: 'unsigned' })
  expect(await dlocal().verifyWebhook(paid.headers, paid.body.replace('PAID', 'PENDING'))).toEqual({
    refused: 'signature',
  })
  expect(await dlocal({ now: () => Date.now() + 3_600_000 }).verifyWebhook(paid.headers, paid.body)).toEqual({
    refused: 'stale',
  })
  expect(await dlocal({ login: 'other' }).verifyWebhook(paid.headers, paid.body)).toEqual({
    refused: 'signature',
  })
  const date = new Date().toISOString()
  const headers = {
    'x-date': date,
    'x-login': DLOCAL_STAND_IN_CREDENTIALS.login,
    authorization: dlocalAuthorization(
      DLOCAL_STAND_IN_CREDENTIALS.secretKey,
      DLOCAL_STAND_IN_CREDENTIALS.login,
      date,
      '[]',
    ),
  }
  expect(await dlocal().verifyWebhook(headers, '[]')).toEqual({ refused: 'unreadable' })
  const expired = await standIn.send(result.providerRef, 'EXPIRED')
  expect(await dlocal().verifyWebhook(expired.headers, expired.body)).toMatchObject({
    eventId: `${result.providerRef}:EXPIRED`,
    outcome: { status: 'failed' },
  })
})

test('refunds: the same share of the local amount, never above what was paid', async () => {
  const result = await dlocal().createCheckout(checkout())
  await standIn.pay(result.providerRef)
  const local = { currency: 'MXN', amountMinor: 145_054, capturedJpy: 12_345 }
  const half = await dlocal().refund({
    captureRef: result.providerRef,
    amountJpy: 6000,
    idempotencyKey: randomUUID(),
    local,
  })
  expect(half.status).toBe('succeeded')
  expect(standIn.payment(result.providerRef)?.refunded).toBe(705)
  expect(await dlocal().lookupRefund(half.refundRef)).toBe('succeeded')
  // More than is left: the stand-in refuses, as dLocal does.
  await expect(
    dlocal().refund({
      captureRef: result.providerRef,
      amountJpy: 12_345,
      idempotencyKey: randomUUID(),
      local,
    }),
  ).rejects.toMatchObject({ details: { reason: 'paymentRefused' } })
  // More yen than captured, or no local amount: refused before any call.
  await expect(
    dlocal().refund({
      captureRef: result.providerRef,
      amountJpy: 12_346,
      idempotencyKey: randomUUID(),
      local,
    }),
  ).rejects.toMatchObject({ code: 'invalid' })
  await expect(
    dlocal().refund({ captureRef: result.providerRef, amountJpy: 100, idempotencyKey: randomUUID() }),
  ).rejects.toMatchObject({ code: 'invalid' })
  await expect(
    dlocal().refund({ captureRef: '../x', amountJpy: 100, idempotencyKey: randomUUID(), local }),
  ).rejects.toMatchObject({ code: 'invalid' })
})

test('the environment: all three or none, sandbox by default, live on purpose, https only', () => {
  expect(paymentProvidersFromEnv({})).toEqual([])
  const all = {
    DLOCAL_LOGIN: 'l',
    DLOCAL_TRANS_KEY: 't',
    DLOCAL_SECRET_KEY: 's',
  }
  expect(paymentProvidersFromEnv(all).map((provider) => provider.name)).toEqual(['dlocal'])
  expect(() => paymentProvidersFromEnv({ DLOCAL_LOGIN: 'l' })).toThrow(
    /DLOCAL_TRANS_KEY: required with DLOCAL_LOGIN[\s\S]*DLOCAL_SECRET_KEY: required/,
  )
  expect(() => paymentProvidersFromEnv({ ...all, DLOCAL_ENV: 'prod' })).toThrow(
    /DLOCAL_ENV: must be sandbox or live/,
  )
  expect(() => paymentProvidersFromEnv({ ...all, DLOCAL_API_URL: 'http://example.com' })).toThrow(
    /DLOCAL_API_URL/,
  )
  expect(() => paymentProvidersFromEnv({ ...all, DLOCAL_SECRET_KEY: '  ' })).toThrow(
    /DLOCAL_SECRET_KEY: required/,
  )
})

test('the default address is the sandbox, live only with DLOCAL_ENV=live', async () => {
  const seen: string[] = []
  const fetchSpy = (async (url: string) => {
    seen.push(String(url))
    throw new Error('offline')
  }) as unknown as typeof fetch
  const env = { DLOCAL_LOGIN: 'l', DLOCAL_TRANS_KEY: 't', DLOCAL_SECRET_KEY: 's' }
  for (const extra of [{}, { DLOCAL_ENV: 'live' }]) {
    const [provider] = paymentProvidersFromEnv({ ...env, ...extra }, fetchSpy)
    await expect(provider?.lookup('D-1')).rejects.toMatchObject({
      details: { reason: 'paymentProviderDown' },
    })
  }
  expect(seen).toEqual(['https://sandbox.dlocal.com/payments/D-1', 'https://api.dlocal.com/payments/D-1'])
})
