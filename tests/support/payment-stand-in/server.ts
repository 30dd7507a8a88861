import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createPayPalStandIn } from './paypal.ts'
import {
  json,
  type PaymentStandIn,
  page,
  STAND_IN_CREDENTIALS,
  type StandInCall,
  type StandInCore,
  type StandInProvider,
  type StandInWebhook,
} from './shared.ts'
import { createStripeStandIn, isStripePath } from './stripe.ts'

export {
  type PaymentStandIn,
  STAND_IN_CREDENTIALS,
  type StandInCall,
  type StandInProvider,
  type StandInRefund,
  type StandInWebhook,
} from './shared.ts'

/**
 * One local HTTP server standing in for both payment providers, for tests and development. It
 * speaks the part of each API that core/payments uses, with the behaviour that matters to it:
 * PayPal's in paypal.ts, Stripe's in stripe.ts (each says which calls and webhooks).
 *
 * A hosted page per order or session (GET /pay/:ref, plain forms, English: this is test
 * tooling) with "Approve payment", "Decline" and "Cancel and return": approving redirects to the
 * return URL and sends the provider's webhooks; declining makes the payment fail as that provider
 * does; cancelling goes to the cancel URL and changes nothing.
 *
 * Test controls (on the returned object): `failNext(n, status?)`, `down` ('error' answers 503,
 * 'hang' never answers), `delayMs`, `overrideAmount` (what a capture/payment reports instead of
 * the invoice's amount), `replayLastWebhook()`, `sendForgedWebhook()`, `sendWebhook()`, `forgetRequestIds()`,
 * `expireTokens()`, and the lists `calls` (API requests received) and `webhooks` (sent).
 * Controls apply to the API, not to the pay page.
 *
 * Standalone: `node tests/support/payment-stand-in/server.ts --port 4010 --webhook-url
 * http://localhost:3000/api/payments/webhooks/` prints the environment for the app.
 */

export type StandInOptions = {
  /** 0 (default): any free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /**
   * Where webhooks are posted. A URL ending in `/` gets `paypal` or `stripe` appended; any other
   * is used for both. null (default): webhooks are only recorded in `webhooks`.
   */
  webhookUrl?: string | null
  /** Lifetime of PayPal access tokens in seconds (PayPal: 32,400). */
  tokenTtlSeconds?: number
  /** One line per API call and webhook (the standalone server prints them). */
  log?: (line: string) => void
}

export async function startPaymentStandIn(options: StandInOptions = {}): Promise<PaymentStandIn> {
  const host = options.host ?? '127.0.0.1'
  const log = options.log ?? (() => {})
  const deliveries = new Set<Promise<void>>()
  let failures = { count: 0, status: 503 }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`stand-in error: ${error.stack ?? error.message}`)
      if (!res.headersSent) json(res, 500, { message: 'stand-in error' })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const advertised =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const url = `http://${advertised}:${port}`

  const standIn: PaymentStandIn = {
    url,
    env: {
      PAYPAL_API_URL: url,
      PAYPAL_CLIENT_ID: STAND_IN_CREDENTIALS.paypal.clientId,
      PAYPAL_CLIENT_SECRET: STAND_IN_CREDENTIALS.paypal.clientSecret,
      PAYPAL_WEBHOOK_ID: STAND_IN_CREDENTIALS.paypal.webhookId,
      STRIPE_API_URL: url,
      STRIPE_SECRET_KEY: STAND_IN_CREDENTIALS.stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: STAND_IN_CREDENTIALS.stripe.webhookSecret,
    },
    webhookUrl: options.webhookUrl ?? null,
    down: false,
    delayMs: 0,
    overrideAmount: null,
    paypalDecline: 'capture-denied',
    refundStatus: 'succeeded',
    settleRefund(id, status) {
      const refund = standIn.refunds.find((candidate) => candidate.id === id)
      if (!refund) throw new Error(`No refund ${id}`)
      refund.status = status
    },
    calls: [],
    webhooks: [],
    refunds: [],
    failNext(count, status = 503) {
      failures = { count, status }
    },
    resetControls() {
      standIn.down = false
      standIn.delayMs = 0
      standIn.overrideAmount = null
      standIn.paypalDecline = 'capture-denied'
      standIn.refundStatus = 'succeeded'
      failures = { count: 0, status: 503 }
    },
    expireTokens() {
      paypal.expireTokens()
    },
    forgetRequestIds() {
      paypal.forgetRequestIds()
      stripe.forgetRequestIds()
    },
    order: (id) => paypal.order(id),
    session: (id) => stripe.session(id),
    captureCount: (orderId) => paypal.captureCount(orderId),
    async replayLastWebhook({ resign = false } = {}) {
      const last = standIn.webhooks.at(-1)
      if (!last) throw new Error('No webhook has been sent yet')
      const headers = resign ? providers[last.provider].sign(last.body) : last.headers
      const again = record(last.provider, last.eventId, last.type, headers, last.body, last.forged)
      await deliver(again)
      return again
    },
    async sendForgedWebhook(provider) {
      const webhook = providers[provider].forgedWebhook()
      await deliver(webhook)
      return webhook
    },
    async sendWebhook(provider, type, object) {
      const webhook = providers[provider].event(type, object)
      await deliver(webhook)
      return webhook
    },
    async settled() {
      while (deliveries.size > 0) await Promise.all([...deliveries])
    },
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }

  const core: StandInCore = { url, controls: standIn, record, deliver }
  const paypal = createPayPalStandIn(core, { tokenTtlSeconds: options.tokenTtlSeconds ?? 32_400 })
  const stripe = createStripeStandIn(core)
  const providers = { paypal, stripe }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let body = ''
    for await (const chunk of req) body += chunk
    const requestUrl = new URL(req.url ?? '/', url)
    const path = requestUrl.pathname
    const method = req.method ?? 'GET'
    if (path === '/pay' || path.startsWith('/pay/')) return payPage(method, path, res)

    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    const call: StandInCall = { method, path: `${path}${requestUrl.search}`, headers, body, status: null }
    standIn.calls.push(call)
    const answer = (status: number, payload: unknown) => {
      call.status = status
      log(`${method} ${path} → ${status}`)
      json(res, status, payload)
    }
    if (standIn.down === 'hang') return
    if (standIn.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.delayMs))
    const provider = isStripePath(path) ? stripe : paypal
    if (failures.count > 0) {
      failures.count -= 1
      return answer(failures.status, provider.unavailable)
    }
    if (standIn.down === 'error') return answer(503, provider.unavailable)

    const [status, payload] = provider.api(method, path, headers, body)
    answer(status, payload)
  }

  /** The pay pages: GET /pay/:ref, POST /pay/:ref/approve|decline|cancel, for either provider. */
  function payPage(method: string, path: string, res: ServerResponse) {
    const [, , ref = '', action] = path.split('/')
    const provider = [paypal, stripe].find((candidate) => candidate.has(ref))
    if (!provider) return page(res, 404, 'Not found', '<p>There is no payment with this reference.</p>')
    if (method === 'GET' && action === undefined) return provider.showPayPage(res, ref)
    if (method !== 'POST' || (action !== 'approve' && action !== 'decline' && action !== 'cancel')) {
      return page(res, 405, 'Not allowed', '<p>Use the buttons on the payment page.</p>')
    }
    return provider.submitPayPage(res, ref, action)
  }

  // ---------------------------------------------------------------- webhooks

  function record(
    provider: StandInProvider,
    eventId: string,
    type: string,
    headers: Record<string, string>,
    body: string,
    forged: boolean,
  ): StandInWebhook {
    const webhook: StandInWebhook = {
      provider,
      eventId,
      type,
      url: null,
      headers,
      body,
      forged,
      status: null,
      error: null,
    }
    standIn.webhooks.push(webhook)
    return webhook
  }

  function deliver(webhook: StandInWebhook): Promise<void> {
    const base = standIn.webhookUrl
    if (!base) return Promise.resolve()
    webhook.url = base.endsWith('/') ? `${base}${webhook.provider}` : base
    const delivery = fetch(webhook.url, {
      method: 'POST',
      headers: webhook.headers,
      body: webhook.body,
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        webhook.status = response.status
        await response.arrayBuffer()
        log(`webhook ${webhook.type} → ${webhook.url} ${response.status}`)
      })
      .catch((error: Error) => {
        webhook.error = error.message
        log(`webhook ${webhook.type} → ${webhook.url} failed: ${error.message}`)
      })
      .finally(() => deliveries.delete(delivery))
    deliveries.add(delivery)
    return delivery
  }

  return standIn
}

/**
 * Presses a button of the pay page as a browser would without JavaScript: reads the page,
 * finds the form of the button with that label, posts it. Returns where the provider redirects.
 */
export async function submitPayPage(
  payUrl: string,
  button: 'Approve payment' | 'Decline' | 'Cancel and return',
): Promise<{ status: number; location: string | null }> {
  const html = await (await fetch(payUrl)).text()
  const forms = html.matchAll(
    /<form method="post" action="([^"]+)">\s*<button type="submit">([^<]+)<\/button>/g,
  )
  const action = [...forms].find((form) => form[2] === button)?.[1]
  if (!action) throw new Error(`No "${button}" button on ${payUrl}`)
  const response = await fetch(new URL(action, payUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  })
  await response.arrayBuffer()
  return { status: response.status, location: response.headers.get('location') }
}

// Standalone: a stand-in for development and manual testing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'webhook-url': { type: 'string' },
    },
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(
      'usage: node tests/support/payment-stand-in/server.ts [--port 4010] [--host 127.0.0.1] [--webhook-url URL]',
    )
  }
  const standIn = await startPaymentStandIn({
    port,
    host: values.host,
    webhookUrl: values['webhook-url'] ?? null,
    log: (line) => console.log(line),
  })
  console.log(`Payment stand-in (PayPal and Stripe) on ${standIn.url}; pay pages at ${standIn.url}/pay/<ref>`)
  console.log(
    standIn.webhookUrl
      ? `Webhooks go to ${standIn.webhookUrl.endsWith('/') ? `${standIn.webhookUrl}{paypal,stripe}` : standIn.webhookUrl}`
      : 'No --webhook-url: webhooks are not sent',
  )
  console.log("Set in the app's environment:\n")
  for (const [name, value] of Object.entries(standIn.env)) console.log(`${name}=${value}`)
  console.log('')
  const stop = () => {
    void standIn.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
