import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPayPalProvider } from '#core/payments/paypal.ts'
import { createStripeProvider } from '#core/payments/stripe.ts'
import { type PaymentStandIn, STAND_IN_CREDENTIALS, startPaymentStandIn, submitPayPage } from './server.ts'

// A receiver for the webhooks, as the app's webhook route would be.
const received: { path: string; headers: Record<string, string | string[] | undefined>; body: string }[] = []
const receiver = createServer(async (req, res) => {
  let body = ''
  for await (const chunk of req) body += chunk
  received.push({ path: req.url ?? '', headers: req.headers, body })
  res.writeHead(200).end()
})
let standIn: PaymentStandIn

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const port = (receiver.address() as AddressInfo).port
  standIn = await startPaymentStandIn({ webhookUrl: `http://127.0.0.1:${port}/api/payments/webhooks/` })
})
afterAll(async () => {
  await standIn.close()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

const input = {
  invoiceId: 'b7d6c1f3-0000-4000-8000-000000000001',
  invoiceNumber: 'INV-2026-00001',
  amountJpy: 3300,
  description: 'Purchase request PR-000001 <b>',
  returnUrl: 'http://localhost:3000/return',
  cancelUrl: 'http://localhost:3000/cancel',
  locale: 'en' as const,
  idempotencyKey: 'payment-1',
}

test('webhooks are posted byte for byte to the URL plus the provider’s name; replays and forgeries too', async () => {
  const paypal = createPayPalProvider({ ...STAND_IN_CREDENTIALS.paypal, apiUrl: standIn.url })
  const order = await paypal.createCheckout(input)
  await submitPayPage(order.payUrl, 'Approve payment')
  await paypal.confirm(order.providerRef)
  const stripe = createStripeProvider({ ...STAND_IN_CREDENTIALS.stripe, apiUrl: standIn.url })
  const session = await stripe.createCheckout(input)
  await submitPayPage(session.payUrl, 'Approve payment')
  await standIn.settled()

  expect(received.map((delivery) => delivery.path).sort()).toEqual([
    '/api/payments/webhooks/paypal',
    '/api/payments/webhooks/paypal',
    '/api/payments/webhooks/stripe',
  ])
  expect(standIn.webhooks.map((webhook) => [webhook.type, webhook.status])).toEqual([
    ['CHECKOUT.ORDER.APPROVED', 200],
    ['PAYMENT.CAPTURE.COMPLETED', 200],
    ['checkout.session.completed', 200],
  ])
  for (const delivery of received) {
    const webhook = standIn.webhooks.find((candidate) => candidate.body === delivery.body)
    expect(delivery.path).toBe(`/api/payments/webhooks/${webhook?.provider}`)
    const verified = await (webhook?.provider === 'paypal' ? paypal : stripe).verifyWebhook(
      delivery.headers as Record<string, string>,
      delivery.body,
    )
    expect(verified?.eventId).toBe(webhook?.eventId)
  }

  const replay = await standIn.replayLastWebhook()
  expect(received.at(-1)?.body).toBe(replay.body)
  expect(received.at(-1)?.headers['stripe-signature']).toBe(
    standIn.webhooks.at(-2)?.headers['stripe-signature'],
  )
  const forged = await standIn.sendForgedWebhook('stripe')
  expect(forged).toMatchObject({ forged: true, status: 200, url: standIn.webhooks.at(-2)?.url })
  expect(await stripe.verifyWebhook(received.at(-1)?.headers as Record<string, string>, forged.body)).toEqual(
    { refused: 'signature' },
  )
})

test('the pay page: plain labelled forms in English, the amount in yen, nothing to press once paid', async () => {
  const stripe = createStripeProvider({ ...STAND_IN_CREDENTIALS.stripe, apiUrl: standIn.url })
  const { payUrl } = await stripe.createCheckout({ ...input, idempotencyKey: 'payment-2' })
  const html = await (await fetch(payUrl)).text()
  expect(html).toMatch(/<html lang="en">/)
  expect(html).toMatch(/<title>Stripe Checkout — INV-2026-00001 \(local stand-in\)<\/title>/)
  expect(html).toContain('¥3,300 (JPY)')
  expect(html).toContain('Purchase request PR-000001 &#60;b&#62;')
  for (const label of ['Approve payment', 'Decline', 'Cancel and return']) {
    expect(html).toContain(`<button type="submit">${label}</button>`)
  }
  await submitPayPage(payUrl, 'Approve payment')
  const after = await (await fetch(payUrl)).text()
  expect(after).toContain('This checkout is complete.')
  expect(after).not.toContain('<button')
  expect((await fetch(`${standIn.url}/pay/cs_test_unknown`)).status).toBe(404)
})

test('PayPal refuses decimals in yen, as the real API does', async () => {
  const token = await fetch(`${standIn.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${STAND_IN_CREDENTIALS.paypal.clientId}:${STAND_IN_CREDENTIALS.paypal.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  })
  const { access_token: accessToken } = (await token.json()) as { access_token: string }
  const response = await fetch(`${standIn.url}/v2/checkout/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'JPY', value: '100.50' } }],
      payment_source: {
        paypal: { experience_context: { return_url: input.returnUrl, cancel_url: input.cancelUrl } },
      },
    }),
  })
  expect(response.status).toBe(422)
  expect(await response.json()).toMatchObject({ details: [{ issue: 'DECIMALS_NOT_SUPPORTED' }] })
})
