import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { startPaymentStandIn } from '#tests/support/payment-stand-in/server.ts'
import { paymentProvidersFromEnv } from './provider.ts'

const paypalEnv = { PAYPAL_CLIENT_ID: 'client', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_WEBHOOK_ID: 'WH-1' }
const stripeEnv = { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123' }

/** The one provider the environment configures, with the URL and signal of its first call. */
async function firstCall(env: NodeJS.ProcessEnv) {
  const calls: { url: string; signal: AbortSignal | null | undefined }[] = []
  const recording: typeof fetch = async (url, init) => {
    calls.push({ url: String(url), signal: init?.signal })
    return new Response('{}', { status: 503 })
  }
  const [provider, ...others] = paymentProvidersFromEnv(env, recording)
  if (!provider || others.length > 0) throw new Error('expected one provider')
  await expect(provider.lookup(provider.name === 'paypal' ? 'ORDER1' : 'cs_test_1')).rejects.toMatchObject({
    details: { reason: 'paymentProviderDown' },
  })
  return { name: provider.name, ...calls[0] }
}

test('no variables: no provider, manual payments only', () => {
  expect(paymentProvidersFromEnv({})).toEqual([])
  expect(paymentProvidersFromEnv({ PAYPAL_CLIENT_ID: ' ', STRIPE_SECRET_KEY: '' })).toEqual([])
})

test('PayPal talks to the sandbox unless PAYPAL_ENV=live; PAYPAL_API_URL overrides both', async () => {
  expect(await firstCall(paypalEnv)).toMatchObject({
    name: 'paypal',
    url: 'https://api-m.sandbox.paypal.com/v1/oauth2/token',
  })
  expect((await firstCall({ ...paypalEnv, PAYPAL_ENV: 'live' })).url).toBe(
    'https://api-m.paypal.com/v1/oauth2/token',
  )
  const local = { ...paypalEnv, PAYPAL_ENV: 'live', PAYPAL_API_URL: 'http://127.0.0.1:4010/' }
  expect((await firstCall(local)).url).toBe('http://127.0.0.1:4010/v1/oauth2/token')
})

test('Stripe talks to api.stripe.com unless STRIPE_API_URL says otherwise; PayPal comes first', async () => {
  expect(await firstCall(stripeEnv)).toMatchObject({
    name: 'stripe',
    url: 'https://api.stripe.com/v1/checkout/sessions/cs_test_1',
  })
  const local = { ...stripeEnv, STRIPE_API_URL: 'http://localhost:4010' }
  expect((await firstCall(local)).url).toBe('http://localhost:4010/v1/checkout/sessions/cs_test_1')

  expect(paymentProvidersFromEnv({ ...stripeEnv, ...paypalEnv }).map((provider) => provider.name)).toEqual([
    'paypal',
    'stripe',
  ])
})

test('every call has a time limit: 10 s, or PAYMENT_PROVIDER_TIMEOUT_SECONDS', async () => {
  const hanging: typeof fetch = (_url, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
    })
  const [stripe] = paymentProvidersFromEnv({ ...stripeEnv, PAYMENT_PROVIDER_TIMEOUT_SECONDS: '1' }, hanging)
  const started = Date.now()
  const error = await stripe?.lookup('cs_test_1').catch((caught: Error) => caught)
  expect(error).toMatchObject({ code: 'upstream_failed', details: { reason: 'paymentProviderDown' } })
  expect((error as Error).message).toMatch(/no answer within 1000 ms/)
  expect(Date.now() - started).toBeGreaterThanOrEqual(900)

  expect((await firstCall(stripeEnv)).signal).toBeInstanceOf(AbortSignal)
})

test('a provider configured by halves or a bad value stops the start, naming each variable', () => {
  expect(() =>
    paymentProvidersFromEnv({ PAYPAL_CLIENT_ID: 'client', PAYPAL_CLIENT_SECRET: 'secret' }),
  ).toThrow(/PAYPAL_WEBHOOK_ID: required/)
  expect(() => paymentProvidersFromEnv({ STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow(
    /STRIPE_SECRET_KEY: required/,
  )
  expect(() => paymentProvidersFromEnv({ STRIPE_SECRET_KEY: 'sk_live_1' })).toThrow(
    /STRIPE_WEBHOOK_SECRET: required/,
  )

  const bad = {
    ...paypalEnv,
    ...stripeEnv,
    PAYPAL_ENV: 'production',
    PAYPAL_API_URL: 'http://paypal.example.com',
    STRIPE_SECRET_KEY: 'pk_live_123',
    STRIPE_WEBHOOK_SECRET: 'plain-value-42',
    STRIPE_API_URL: 'https://stripe.example.com/?x=1',
    PAYMENT_PROVIDER_TIMEOUT_SECONDS: '0',
  }
  let message = ''
  try {
    paymentProvidersFromEnv(bad)
  } catch (error) {
    message = (error as Error).message
  }
  for (const name of [
    'PAYPAL_ENV',
    'PAYPAL_API_URL',
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_API_URL',
    'PAYMENT_PROVIDER_TIMEOUT_SECONDS',
  ]) {
    expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'))
  }
  // The values themselves (secrets among them) are not repeated.
  expect(message).not.toMatch(/pk_live_123|plain-value-42/)
})

test('the stand-in’s env gives both providers, working against it', async () => {
  const standIn = await startPaymentStandIn()
  try {
    const configured = paymentProvidersFromEnv(standIn.env)
    expect(configured.map((provider) => provider.name)).toEqual(['paypal', 'stripe'])
    for (const provider of configured) {
      const { providerRef, payUrl } = await provider.createCheckout({
        invoiceId: randomUUID(),
        invoiceNumber: `INV-${provider.name}`,
        amountJpy: 5000,
        description: 'Shipping, EMS 2 kg',
        returnUrl: 'http://localhost:3000/return',
        cancelUrl: 'http://localhost:3000/cancel',
        locale: 'en',
        idempotencyKey: randomUUID(),
      })
      expect(payUrl).toBe(`${standIn.url}/pay/${providerRef}`)
      expect(await provider.lookup(providerRef)).toMatchObject({
        status: 'pending',
        amountJpy: 5000,
        currency: 'JPY',
      })
    }
  } finally {
    await standIn.close()
  }
})
