import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

/**
 * One local HTTP server standing in for both payment providers, for tests and development. It
 * speaks the part of each API that core/payments uses, with the behaviour that matters to it:
 *
 * PayPal (Orders v2): POST /v1/oauth2/token (client credentials, tokens expire), POST
 * /v2/checkout/orders (PayPal-Request-Id: the same id answers the same order; JPY with decimals
 * refused), GET /v2/checkout/orders/:id, POST …/:id/capture (PayPal-Request-Id replays the first
 * answer; ORDER_NOT_APPROVED before approval, ORDER_ALREADY_CAPTURED on a capture under another
 * id, DUPLICATE_INVOICE_ID when the invoice number was already paid), POST
 * /v1/notifications/verify-webhook-signature (SUCCESS only for the stand-in's own signatures,
 * an HMAC over transmission id, time, webhook id and body).
 *
 * Stripe (Checkout Sessions): POST /v1/checkout/sessions (form-encoded; Idempotency-Key replays,
 * and refuses other parameters under the same key), GET /v1/checkout/sessions/:id, POST
 * …/:id/expire; webhooks signed `Stripe-Signature: t=…,v1=…` with the whsec secret, as Stripe does.
 *
 * A hosted page per order or session (GET /pay/:ref, plain forms, English: this is test
 * tooling) with "Approve payment", "Decline" and "Cancel and return": approving redirects to the
 * return URL (PayPal `?token=<order id>&PayerID=…`; Stripe the success URL with the session id)
 * and sends webhooks (PayPal CHECKOUT.ORDER.APPROVED, then PAYMENT.CAPTURE.COMPLETED or DENIED
 * at capture; Stripe checkout.session.completed at once). Declining: PayPal's capture is then
 * denied (or refused INSTRUMENT_DECLINED, see `paypalDecline`); Stripe's session expires
 * (checkout.session.expired) and the customer goes to the cancel URL. Cancelling goes to the
 * cancel URL and changes nothing.
 *
 * Test controls (on the returned object): `failNext(n, status?)`, `down` ('error' answers 503,
 * 'hang' never answers), `delayMs`, `overrideAmount` (what a capture/payment reports instead of
 * the invoice's amount), `replayLastWebhook()`, `sendForgedWebhook()`, `sendWebhook()`, `forgetRequestIds()`,
 * `expireTokens()`, and the lists `calls` (API requests received) and `webhooks` (sent).
 * Controls apply to the API, not to the pay page.
 *
 * Standalone: `node tests/support/payment-stand-in.ts --port 4010 --webhook-url
 * http://localhost:3000/api/payments/webhooks/` prints the environment for the app.
 */

export type StandInProvider = 'paypal' | 'stripe'

/** Fixed, obviously fake credentials: the stand-in checks them as the providers would. */
export const STAND_IN_CREDENTIALS = {
  paypal: {
    clientId: 'stand-in-paypal-client',
    clientSecret: 'stand-in-paypal-secret',
    webhookId: 'WH-STAND-IN-0001',
  },
  stripe: {
    secretKey: 'sk_test_stand_in',
    webhookSecret: 'whsec_stand_in_0123456789abcdef',
  },
} as const

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

export type StandInCall = {
  method: string
  path: string
  /** Lower-case names, as received. */
  headers: Record<string, string>
  body: string
  /** The status answered; null while unanswered (delayed or hanging). */
  status: number | null
}

export type StandInWebhook = {
  provider: StandInProvider
  eventId: string
  type: string
  /** Where it was posted; null when no webhook URL is set. */
  url: string | null
  headers: Record<string, string>
  body: string
  forged: boolean
  /** The receiver's answer; null until delivered, or when not sent or failed (see `error`). */
  status: number | null
  error: string | null
}

type Money = { currency_code: string; value: string }

type Order = {
  id: string
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED'
  amount: Money
  invoiceNumber: string | null
  customId: string | null
  description: string | null
  returnUrl: string
  cancelUrl: string
  payerId: string | null
  declined: boolean
  capture: { id: string; status: 'COMPLETED' | 'DECLINED'; amount: Money; time: string } | null
  captures: number
  createTime: string
  updateTime: string
}

type Session = {
  id: string
  status: 'open' | 'complete' | 'expired'
  paymentStatus: 'unpaid' | 'paid'
  amountTotal: number
  currency: string
  name: string
  clientReferenceId: string | null
  metadata: Record<string, string>
  successUrl: string
  cancelUrl: string
  locale: string | null
  paymentIntent: string | null
  created: number
  expiresAt: number
}

export type StandInRefund = {
  provider: StandInProvider
  id: string
  /** The PayPal capture id / Stripe PaymentIntent id refunded. */
  captureRef: string
  amountJpy: number
  /** As the provider reports it now (`refundStatus` when made; `settleRefund` moves it on). */
  status: 'succeeded' | 'pending' | 'failed'
}

export type PaymentStandIn = {
  /** Base URL of both APIs and the pay pages. */
  readonly url: string
  /** The app's environment for this stand-in (PAYPAL_API_URL, PAYPAL_CLIENT_ID…, STRIPE_…). */
  readonly env: Record<string, string>
  webhookUrl: string | null
  /** 'error': every API call answers 503; 'hang': no answer at all (until close). */
  down: false | 'error' | 'hang'
  /** Wait this long before answering each API call (the call still takes effect). */
  delayMs: number
  /**
   * What a PayPal capture or a Stripe payment reports instead of the ordered amount: `amount`
   * in the currency's major unit (999 JPY, 12.5 USD).
   */
  overrideAmount: { amount: number; currency: string } | null
  /** How PayPal refuses a declined buyer's capture: a DECLINED capture (201) or 422 INSTRUMENT_DECLINED. */
  paypalDecline: 'capture-denied' | 'instrument-declined'
  /** What a new refund reports: done at once, or still being processed (a bank's delay). */
  refundStatus: 'succeeded' | 'pending'
  /** A pending refund goes through (or fails) later, as GET /v2/payments/refunds/:id or /v1/refunds/:id then say. */
  settleRefund(id: string, status: 'succeeded' | 'failed'): void
  readonly calls: StandInCall[]
  readonly webhooks: StandInWebhook[]
  /** The next `count` API calls answer `status` (default 503). */
  failNext(count: number, status?: number): void
  /** Back to: up, no delay, no failures, no override, captures denied on decline. */
  resetControls(): void
  /** Every PayPal access token stops working (the adapter should fetch a new one). */
  expireTokens(): void
  /** PayPal and Stripe forget the request ids / idempotency keys they stored (PayPal: after hours). */
  forgetRequestIds(): void
  /** The order as GET /v2/checkout/orders/:id shows it. */
  order(id: string): Record<string, unknown> | undefined
  /** The session as GET /v1/checkout/sessions/:id shows it. */
  session(id: string): Record<string, unknown> | undefined
  /** How many captures were made on a PayPal order. */
  captureCount(orderId: string): number
  /** Every refund made (PayPal capture refunds, Stripe refunds), in order. */
  readonly refunds: StandInRefund[]
  /**
   * Sends the last webhook again: the same bytes and headers (a duplicate delivery), or with
   * `resign`, freshly signed as a provider's retry is. Resolves once delivered.
   */
  replayLastWebhook(options?: { resign?: boolean }): Promise<StandInWebhook>
  /** A webhook that looks real (about the last order or session) but is not signed by the provider. */
  sendForgedWebhook(provider: StandInProvider): Promise<StandInWebhook>
  /**
   * Any event, properly signed: `object` is PayPal's `resource` or Stripe's `data.object`
   * (refunds, disputes… that the pages cannot trigger). Resolves once delivered.
   */
  sendWebhook(
    provider: StandInProvider,
    type: string,
    object: Record<string, unknown>,
  ): Promise<StandInWebhook>
  /** Resolves when every webhook started so far has been delivered (or has failed). */
  settled(): Promise<void>
  close(): Promise<void>
}

export async function startPaymentStandIn(options: StandInOptions = {}): Promise<PaymentStandIn> {
  const host = options.host ?? '127.0.0.1'
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 32_400
  const log = options.log ?? (() => {})
  const paypalSigningKey = randomBytes(32)
  const tokens = new Map<string, number>()
  const orders = new Map<string, Order>()
  const sessions = new Map<string, Session>()
  const paypalReplies = new Map<string, { status: number; body: unknown }>()
  const stripeReplies = new Map<string, { request: string; status: number; body: unknown }>()
  const deliveries = new Set<Promise<void>>()
  let failures = { count: 0, status: 503 }
  let url = ''

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
  url = `http://${advertised}:${port}`

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
      tokens.clear()
    },
    forgetRequestIds() {
      paypalReplies.clear()
      stripeReplies.clear()
    },
    order(id) {
      const order = orders.get(id)
      return order && orderJson(order)
    },
    session(id) {
      const session = sessions.get(id)
      return session && sessionJson(session)
    },
    captureCount(orderId) {
      return orders.get(orderId)?.captures ?? 0
    },
    async replayLastWebhook({ resign = false } = {}) {
      const last = standIn.webhooks.at(-1)
      if (!last) throw new Error('No webhook has been sent yet')
      const headers = resign ? sign(last.provider, last.body) : last.headers
      const again = record(last.provider, last.eventId, last.type, headers, last.body, last.forged)
      await deliver(again)
      return again
    },
    async sendForgedWebhook(provider) {
      const webhook =
        provider === 'paypal'
          ? paypalEvent('PAYMENT.CAPTURE.COMPLETED', 'capture', forgedCapture(), true)
          : stripeEvent('checkout.session.completed', forgedSession(), true)
      await deliver(webhook)
      return webhook
    },
    async sendWebhook(provider, type, object) {
      const webhook =
        provider === 'paypal'
          ? paypalEvent(type, type.split('.')[1]?.toLowerCase() ?? 'unknown', object, false)
          : stripeEvent(type, object, false)
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
    const stripe = path.startsWith('/v1/checkout/') || path.startsWith('/v1/refunds')
    const unavailable = stripe
      ? { error: { type: 'api_error', message: 'The stand-in is down.' } }
      : { name: 'SERVICE_UNAVAILABLE', message: 'The stand-in is down.', debug_id: 'standin' }
    if (failures.count > 0) {
      failures.count -= 1
      return answer(failures.status, unavailable)
    }
    if (standIn.down === 'error') return answer(503, unavailable)

    const [status, payload] = stripe
      ? stripeApi(method, path, headers, body)
      : paypalApi(method, path, headers, body)
    answer(status, payload)
  }

  // ---------------------------------------------------------------- PayPal

  function paypalApi(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string,
  ): [number, unknown] {
    if (method === 'POST' && path === '/v1/oauth2/token') return paypalToken(headers, body)
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1]
    const expiresAt = bearer ? tokens.get(bearer) : undefined
    if (expiresAt === undefined || expiresAt < Date.now()) {
      return [
        401,
        {
          name: 'AUTHENTICATION_FAILURE',
          message: 'Authentication failed due to invalid authentication credentials.',
        },
      ]
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return paypalVerify(body)
    if (method === 'POST' && path === '/v2/checkout/orders') {
      return replayed(path, headers, () => createOrder(body))
    }
    const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path)
    if (method === 'POST' && refundPath)
      return replayed(path, headers, () => refundCapture(refundPath[1] ?? '', body))
    const refundRead = /^\/v2\/payments\/refunds\/([^/]+)$/.exec(path)
    if (method === 'GET' && refundRead) {
      const refund = standIn.refunds.find(
        (candidate) => candidate.id === refundRead[1] && candidate.provider === 'paypal',
      )
      if (!refund) return [404, paypalProblem('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 404)]
      return [200, paypalRefundJson(refund)]
    }
    const orderPath = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path)
    if (orderPath) {
      const order = orders.get(orderPath[1] ?? '')
      if (!order) return [404, paypalProblem('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 404)]
      if (method === 'GET' && !orderPath[2]) return [200, orderJson(order)]
      if (method === 'POST' && orderPath[2]) return replayed(path, headers, () => captureOrder(order))
    }
    return [404, paypalProblem('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 404)]
  }

  /**
   * POST /v2/payments/captures/:id/refund: all of what is left, or `amount`; never more than was
   * captured, in its currency.
   */
  function refundCapture(captureId: string, body: string): [number, unknown] {
    const capture = [...orders.values()].find((candidate) => candidate.capture?.id === captureId)?.capture
    if (capture?.status !== 'COMPLETED') {
      return [404, paypalProblem('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 404)]
    }
    const captured = Number(capture.amount.value)
    const refunded = standIn.refunds
      .filter((refund) => refund.captureRef === captureId)
      .reduce((sum, refund) => sum + refund.amountJpy, 0)
    let asked = captured - refunded
    if (body) {
      const amount = (JSON.parse(body) as { amount?: { currency_code?: string; value?: string } }).amount
      if (amount) {
        if (amount.currency_code !== capture.amount.currency_code) {
          return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'REFUND_CURRENCY_MISMATCH', 422)]
        }
        if (!/^\d+$/.test(amount.value ?? '')) {
          return [400, paypalProblem('INVALID_REQUEST', 'DECIMALS_NOT_SUPPORTED', 400)]
        }
        asked = Number(amount.value)
      }
    }
    if (asked <= 0 || asked > captured - refunded) {
      return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED', 422)]
    }
    const refund: StandInRefund = {
      provider: 'paypal',
      id: paypalId(),
      captureRef: captureId,
      amountJpy: asked,
      status: standIn.refundStatus,
    }
    standIn.refunds.push(refund)
    return [201, paypalRefundJson(refund)]
  }

  /** A PayPal refund as POST …/refund and GET /v2/payments/refunds/:id answer it (in yen). */
  function paypalRefundJson(refund: StandInRefund) {
    const status = { succeeded: 'COMPLETED', pending: 'PENDING', failed: 'FAILED' }[refund.status]
    return {
      id: refund.id,
      status,
      amount: { currency_code: 'JPY', value: String(refund.amountJpy) },
      links: [{ href: `${url}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' }],
    }
  }

  /** PayPal-Request-Id: the same id on the same endpoint gets the stored answer (2xx and 4xx). */
  function replayed(
    path: string,
    headers: Record<string, string>,
    run: () => [number, unknown],
  ): [number, unknown] {
    const requestId = headers['paypal-request-id']
    const key = `${path}\n${requestId}`
    const stored = requestId ? paypalReplies.get(key) : undefined
    if (stored) return [stored.status, stored.body]
    const [status, body] = run()
    if (requestId && status < 500) paypalReplies.set(key, { status, body })
    return [status, body]
  }

  function paypalToken(headers: Record<string, string>, body: string): [number, unknown] {
    const { clientId, clientSecret } = STAND_IN_CREDENTIALS.paypal
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
    if (headers.authorization !== expected) {
      return [401, { error: 'invalid_client', error_description: 'Client Authentication failed' }]
    }
    if (new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
      return [400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' }]
    }
    const token = `A21AA${randomBytes(24).toString('base64url')}`
    tokens.set(token, Date.now() + tokenTtlSeconds * 1000)
    return [
      200,
      {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-STANDIN',
        expires_in: tokenTtlSeconds,
        nonce: randomUUID(),
      },
    ]
  }

  function createOrder(body: string): [number, unknown] {
    let request: {
      intent?: unknown
      purchase_units?: {
        amount?: { currency_code?: unknown; value?: unknown }
        invoice_id?: unknown
        custom_id?: unknown
        description?: unknown
      }[]
      payment_source?: { paypal?: { experience_context?: { return_url?: unknown; cancel_url?: unknown } } }
      application_context?: { return_url?: unknown; cancel_url?: unknown }
    }
    try {
      request = JSON.parse(body)
    } catch {
      return [400, paypalProblem('INVALID_REQUEST', 'MALFORMED_REQUEST_JSON', 400)]
    }
    if (request.intent !== 'CAPTURE')
      return [400, paypalProblem('INVALID_REQUEST', 'INVALID_PARAMETER_VALUE', 400)]
    const unit = request.purchase_units?.[0]
    if (!unit || request.purchase_units?.length !== 1) {
      return [400, paypalProblem('INVALID_REQUEST', 'INVALID_ARRAY_MAX_ITEMS', 400)]
    }
    const currency = unit.amount?.currency_code
    const value = unit.amount?.value
    if (typeof currency !== 'string' || typeof value !== 'string' || !/^\d+(\.\d{1,2})?$/.test(value)) {
      return [400, paypalProblem('INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX', 400)]
    }
    if (currency === 'JPY' && !/^\d+$/.test(value)) {
      return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'DECIMALS_NOT_SUPPORTED', 422)]
    }
    for (const text of [unit.invoice_id, unit.custom_id, unit.description]) {
      if (text !== undefined && (typeof text !== 'string' || text.length > 127)) {
        return [400, paypalProblem('INVALID_REQUEST', 'INVALID_STRING_LENGTH', 400)]
      }
    }
    const context = request.payment_source?.paypal?.experience_context ?? request.application_context
    const returnUrl = context?.return_url
    const cancelUrl = context?.cancel_url
    if (
      typeof returnUrl !== 'string' ||
      typeof cancelUrl !== 'string' ||
      !URL.canParse(returnUrl) ||
      !URL.canParse(cancelUrl)
    ) {
      // Real PayPal allows this (JS SDK buttons); the stand-in only does the redirect flow.
      return [400, paypalProblem('INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 400)]
    }
    const time = new Date().toISOString()
    const order: Order = {
      id: paypalId(),
      status: 'PAYER_ACTION_REQUIRED',
      amount: { currency_code: currency, value },
      invoiceNumber: (unit.invoice_id as string | undefined) ?? null,
      customId: (unit.custom_id as string | undefined) ?? null,
      description: (unit.description as string | undefined) ?? null,
      returnUrl,
      cancelUrl,
      payerId: null,
      declined: false,
      capture: null,
      captures: 0,
      createTime: time,
      updateTime: time,
    }
    orders.set(order.id, order)
    return [201, orderJson(order)]
  }

  function captureOrder(order: Order): [number, unknown] {
    if (order.status === 'COMPLETED') {
      return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 422)]
    }
    if (order.status !== 'APPROVED')
      return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 422)]
    if (order.declined && standIn.paypalDecline === 'instrument-declined') {
      return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED', 422)]
    }
    const paidBefore = [...orders.values()].some(
      (other) =>
        other !== order &&
        order.invoiceNumber !== null &&
        other.invoiceNumber === order.invoiceNumber &&
        other.capture?.status === 'COMPLETED',
    )
    if (paidBefore) return [422, paypalProblem('UNPROCESSABLE_ENTITY', 'DUPLICATE_INVOICE_ID', 422)]
    const time = new Date().toISOString()
    const override = standIn.overrideAmount
    order.capture = {
      id: paypalId(),
      status: order.declined ? 'DECLINED' : 'COMPLETED',
      amount: override
        ? {
            currency_code: override.currency.toUpperCase(),
            value: zeroDecimal(override.currency)
              ? String(Math.round(override.amount))
              : override.amount.toFixed(2),
          }
        : order.amount,
      time,
    }
    order.captures += 1
    order.status = 'COMPLETED'
    order.updateTime = time
    const type = order.declined ? 'PAYMENT.CAPTURE.DENIED' : 'PAYMENT.CAPTURE.COMPLETED'
    const webhook = paypalEvent(
      type,
      'capture',
      { ...captureJson(order), supplementary_data: related(order) },
      false,
    )
    setImmediate(() => void deliver(webhook))
    return [201, orderJson(order)]
  }

  function paypalVerify(body: string): [number, unknown] {
    let request: Record<string, unknown>
    try {
      request = JSON.parse(body)
    } catch {
      return [400, paypalProblem('INVALID_REQUEST', 'MALFORMED_REQUEST_JSON', 400)]
    }
    const names = [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
    ]
    if (
      names.some((name) => typeof request[name] !== 'string') ||
      typeof request.webhook_event !== 'object'
    ) {
      return [400, paypalProblem('VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', 400)]
    }
    const expected = paypalSignature(
      request.transmission_id as string,
      request.transmission_time as string,
      request.webhook_id as string,
      JSON.stringify(request.webhook_event),
    )
    const ok =
      request.webhook_id === STAND_IN_CREDENTIALS.paypal.webhookId &&
      request.auth_algo === 'SHA256withRSA' &&
      request.cert_url === certUrl() &&
      request.transmission_sig === expected
    return [200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' }]
  }

  function paypalSignature(id: string, time: string, webhookId: string, body: string) {
    const digest = createHash('sha256').update(body).digest('hex')
    return createHmac('sha256', paypalSigningKey)
      .update(`${id}|${time}|${webhookId}|${digest}`)
      .digest('base64')
  }

  const certUrl = () => `${url}/v1/notifications/certs/CERT-stand-in`

  function orderJson(order: Order): Record<string, unknown> {
    const links = [{ href: `${url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' }]
    if (order.status === 'PAYER_ACTION_REQUIRED')
      links.push({ href: `${url}/pay/${order.id}`, rel: 'payer-action', method: 'GET' })
    if (order.status === 'APPROVED') {
      links.push({ href: `${url}/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' })
    }
    return {
      id: order.id,
      intent: 'CAPTURE',
      status: order.status,
      payment_source: {
        paypal: order.payerId ? { account_id: order.payerId, email_address: 'buyer@example.com' } : {},
      },
      purchase_units: [
        {
          reference_id: 'default',
          amount: order.amount,
          payee: { merchant_id: 'STANDINMERCHANT' },
          ...(order.description === null ? {} : { description: order.description }),
          ...(order.customId === null ? {} : { custom_id: order.customId }),
          ...(order.invoiceNumber === null ? {} : { invoice_id: order.invoiceNumber }),
          ...(order.capture ? { payments: { captures: [captureJson(order)] } } : {}),
        },
      ],
      ...(order.payerId ? { payer: { payer_id: order.payerId, email_address: 'buyer@example.com' } } : {}),
      create_time: order.createTime,
      update_time: order.updateTime,
      links,
    }
  }

  function captureJson(order: Order): Record<string, unknown> {
    const capture = order.capture
    if (!capture) throw new Error('not captured')
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.status === 'DECLINED'
        ? { status_details: { reason: 'DECLINED_BY_RISK_FRAUD_FILTERS' } }
        : {}),
      amount: capture.amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE' },
      ...(order.customId === null ? {} : { custom_id: order.customId }),
      ...(order.invoiceNumber === null ? {} : { invoice_id: order.invoiceNumber }),
      create_time: capture.time,
      update_time: capture.time,
      links: [{ href: `${url}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' }],
    }
  }

  const related = (order: Order) => ({ related_ids: { order_id: order.id } })

  function forgedCapture(): Record<string, unknown> {
    const order = [...orders.values()].at(-1)
    return {
      id: paypalId(),
      status: 'COMPLETED',
      amount: order?.amount ?? { currency_code: 'JPY', value: '1000' },
      ...(order?.customId ? { custom_id: order.customId } : {}),
      supplementary_data: { related_ids: { order_id: order?.id ?? paypalId() } },
    }
  }

  function paypalEvent(
    type: string,
    resourceType: string,
    resource: unknown,
    forged: boolean,
  ): StandInWebhook {
    const id = `WH-${paypalId()}-${paypalId()}`
    const event = {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: type,
      summary: `${type} (stand-in)`,
      resource,
      links: [],
    }
    const body = JSON.stringify(event)
    return record('paypal', id, type, sign('paypal', body, forged), body, forged)
  }

  // ---------------------------------------------------------------- Stripe

  function stripeApi(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string,
  ): [number, unknown] {
    const key = STAND_IN_CREDENTIALS.stripe.secretKey
    if (headers.authorization !== `Bearer ${key}`) {
      return [
        401,
        { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } },
      ]
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const idempotencyKey = headers['idempotency-key']
      const stored = idempotencyKey ? stripeReplies.get(idempotencyKey) : undefined
      if (stored && stored.request !== body) {
        return [
          400,
          {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          },
        ]
      }
      if (stored) return [stored.status, stored.body]
      const [status, reply] = createSession(body)
      if (idempotencyKey && status === 200)
        stripeReplies.set(idempotencyKey, { request: body, status, body: reply })
      return [status, reply]
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const idempotencyKey = headers['idempotency-key']
      const stored = idempotencyKey ? stripeReplies.get(`refund\n${idempotencyKey}`) : undefined
      if (stored && stored.request !== body) {
        return [
          400,
          {
            error: {
              type: 'idempotency_error',
              message: 'Keys for idempotent requests can only be used with the same parameters.',
            },
          },
        ]
      }
      if (stored) return [stored.status, stored.body]
      const [status, reply] = createRefund(body)
      if (idempotencyKey && status === 200)
        stripeReplies.set(`refund\n${idempotencyKey}`, { request: body, status, body: reply })
      return [status, reply]
    }
    const refundRead = /^\/v1\/refunds\/([^/]+)$/.exec(path)
    if (method === 'GET' && refundRead) {
      const refund = standIn.refunds.find(
        (candidate) => candidate.id === refundRead[1] && candidate.provider === 'stripe',
      )
      if (!refund) {
        return [404, stripeProblem('resource_missing', 'id', `No such refund: '${refundRead[1]}'`)]
      }
      return [200, stripeRefundJson(refund)]
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path)
    const session = sessionPath ? sessions.get(sessionPath[1] ?? '') : undefined
    if (sessionPath && !session) {
      return [
        404,
        {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'session',
            message: `No such checkout.session: '${sessionPath[1]}'`,
          },
        },
      ]
    }
    if (session && method === 'GET' && !sessionPath?.[2]) return [200, sessionJson(session)]
    if (session && method === 'POST' && sessionPath?.[2]) {
      if (session.status !== 'open') {
        return [
          400,
          { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired.' } },
        ]
      }
      expireSession(session)
      return [200, sessionJson(session)]
    }
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    ]
  }

  /** POST /v1/refunds (payment_intent, amount): never more than the paid session's amount. */
  function createRefund(body: string): [number, unknown] {
    const form = new URLSearchParams(body)
    const intent = form.get('payment_intent') ?? ''
    const session = [...sessions.values()].find((candidate) => candidate.paymentIntent === intent)
    if (session?.paymentStatus !== 'paid') {
      return [404, stripeProblem('resource_missing', 'payment_intent', `No such payment_intent: '${intent}'`)]
    }
    const refunded = standIn.refunds
      .filter((refund) => refund.captureRef === intent)
      .reduce((sum, refund) => sum + refund.amountJpy, 0)
    const amount = form.has('amount') ? Number(form.get('amount')) : session.amountTotal - refunded
    if (!Number.isInteger(amount) || amount <= 0 || amount > session.amountTotal - refunded) {
      return [
        400,
        stripeProblem('amount_too_large', 'amount', 'Refund amount is greater than unrefunded amount.'),
      ]
    }
    const refund: StandInRefund = {
      provider: 'stripe',
      id: `re_${randomBytes(12).toString('hex')}`,
      captureRef: intent,
      amountJpy: amount,
      status: standIn.refundStatus,
    }
    standIn.refunds.push(refund)
    return [200, stripeRefundJson(refund)]
  }

  /** A Stripe refund as POST /v1/refunds and GET /v1/refunds/:id answer it. */
  function stripeRefundJson(refund: StandInRefund) {
    return {
      id: refund.id,
      object: 'refund',
      amount: refund.amountJpy,
      currency: 'jpy',
      payment_intent: refund.captureRef,
      status: refund.status,
    }
  }

  function createSession(body: string): [number, unknown] {
    const form = new URLSearchParams(body)
    const missing = [
      'mode',
      'success_url',
      'cancel_url',
      'line_items[0][price_data][currency]',
      'line_items[0][price_data][unit_amount]',
      'line_items[0][price_data][product_data][name]',
      'line_items[0][quantity]',
    ].find((name) => !form.get(name))
    if (missing)
      return [400, stripeProblem('parameter_missing', missing, `Missing required param: ${missing}.`)]
    if (form.get('mode') !== 'payment')
      return [400, stripeProblem('parameter_invalid', 'mode', 'Only payment mode.')]
    const unitAmount = form.get('line_items[0][price_data][unit_amount]') ?? ''
    const quantity = form.get('line_items[0][quantity]') ?? ''
    for (const [param, value] of [
      ['line_items[0][price_data][unit_amount]', unitAmount],
      ['line_items[0][quantity]', quantity],
    ] as const) {
      if (!/^\d+$/.test(value))
        return [400, stripeProblem('parameter_invalid_integer', param, 'Invalid integer.')]
    }
    const successUrl = form.get('success_url') ?? ''
    const cancelUrl = form.get('cancel_url') ?? ''
    if (!URL.canParse(successUrl) || !URL.canParse(cancelUrl)) {
      return [400, stripeProblem('url_invalid', 'success_url', 'Not a valid URL.')]
    }
    const metadata: Record<string, string> = {}
    for (const [name, value] of form) {
      const key = /^metadata\[(.+)\]$/.exec(name)?.[1]
      if (key) metadata[key] = value
    }
    const created = Math.floor(Date.now() / 1000)
    const session: Session = {
      id: `cs_test_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'a')}`,
      status: 'open',
      paymentStatus: 'unpaid',
      amountTotal: Number(unitAmount) * Number(quantity),
      currency: (form.get('line_items[0][price_data][currency]') ?? '').toLowerCase(),
      name: form.get('line_items[0][price_data][product_data][name]') ?? '',
      clientReferenceId: form.get('client_reference_id'),
      metadata,
      successUrl,
      cancelUrl,
      locale: form.get('locale'),
      paymentIntent: null,
      created,
      expiresAt: created + 24 * 3600,
    }
    sessions.set(session.id, session)
    return [200, sessionJson(session)]
  }

  function sessionJson(session: Session): Record<string, unknown> {
    return {
      id: session.id,
      object: 'checkout.session',
      amount_subtotal: session.amountTotal,
      amount_total: session.amountTotal,
      cancel_url: session.cancelUrl,
      client_reference_id: session.clientReferenceId,
      created: session.created,
      currency: session.currency,
      expires_at: session.expiresAt,
      livemode: false,
      locale: session.locale,
      metadata: session.metadata,
      mode: 'payment',
      payment_intent: session.paymentIntent,
      payment_status: session.paymentStatus,
      status: session.status,
      success_url: session.successUrl,
      url: session.status === 'open' ? `${url}/pay/${session.id}` : null,
    }
  }

  function expireSession(session: Session) {
    session.status = 'expired'
    const webhook = stripeEvent('checkout.session.expired', sessionJson(session), false)
    setImmediate(() => void deliver(webhook))
  }

  function forgedSession(): Record<string, unknown> {
    const session = [...sessions.values()].at(-1)
    const base = session
      ? sessionJson(session)
      : { id: `cs_test_${randomBytes(20).toString('hex')}`, object: 'checkout.session', currency: 'jpy' }
    return {
      ...base,
      status: 'complete',
      payment_status: 'paid',
      payment_intent: `pi_${randomBytes(12).toString('hex')}`,
    }
  }

  function stripeEvent(type: string, object: Record<string, unknown>, forged: boolean): StandInWebhook {
    const id = `evt_${randomBytes(12).toString('hex')}`
    const event = {
      id,
      object: 'event',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }
    // Stripe sends indented JSON: a receiver that re-serialises instead of keeping the raw body fails.
    const body = JSON.stringify(event, null, 2)
    return record('stripe', id, type, sign('stripe', body, forged), body, forged)
  }

  // ---------------------------------------------------------------- webhooks

  function sign(provider: StandInProvider, body: string, forged = false): Record<string, string> {
    if (provider === 'stripe') {
      const t = Math.floor(Date.now() / 1000)
      const secret = forged ? 'whsec_not_the_endpoint_secret' : STAND_IN_CREDENTIALS.stripe.webhookSecret
      const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
      return { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `t=${t},v1=${v1}` }
    }
    const id = randomUUID()
    const time = new Date().toISOString()
    const signature = forged
      ? randomBytes(32).toString('base64')
      : paypalSignature(id, time, STAND_IN_CREDENTIALS.paypal.webhookId, body)
    return {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': certUrl(),
      'paypal-transmission-id': id,
      'paypal-transmission-sig': signature,
      'paypal-transmission-time': time,
    }
  }

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

  // ---------------------------------------------------------------- pay page

  function payPage(method: string, path: string, res: ServerResponse) {
    const [, , ref = '', action] = path.split('/')
    const order = orders.get(ref)
    const session = sessions.get(ref)
    if (!order && !session)
      return page(res, 404, 'Not found', '<p>There is no payment with this reference.</p>')
    if (method === 'GET' && action === undefined) {
      return order ? orderPage(res, order) : session && sessionPage(res, session)
    }
    if (method !== 'POST' || !['approve', 'decline', 'cancel'].includes(action ?? '')) {
      return page(res, 405, 'Not allowed', '<p>Use the buttons on the payment page.</p>')
    }
    if (order) {
      if (action === 'cancel') return redirect(res, withQuery(order.cancelUrl, { token: order.id }))
      if (order.status === 'PAYER_ACTION_REQUIRED') {
        order.status = 'APPROVED'
        order.declined = action === 'decline'
        order.payerId = paypalId().slice(0, 13)
        order.updateTime = new Date().toISOString()
        const webhook = paypalEvent('CHECKOUT.ORDER.APPROVED', 'checkout-order', orderJson(order), false)
        setImmediate(() => void deliver(webhook))
      }
      return redirect(res, withQuery(order.returnUrl, { token: order.id, PayerID: order.payerId ?? '' }))
    }
    if (!session) return
    if (action === 'cancel') return redirect(res, session.cancelUrl)
    if (action === 'decline') {
      if (session.status === 'open') expireSession(session)
      return redirect(res, session.cancelUrl)
    }
    if (session.status === 'expired') return page(res, 410, 'Expired', '<p>This checkout has expired.</p>')
    if (session.status === 'open') {
      const override = standIn.overrideAmount
      if (override) {
        session.currency = override.currency.toLowerCase()
        session.amountTotal = Math.round(override.amount * (zeroDecimal(override.currency) ? 1 : 100))
      }
      session.status = 'complete'
      session.paymentStatus = 'paid'
      session.paymentIntent = `pi_${randomBytes(12).toString('hex')}`
      const webhook = stripeEvent('checkout.session.completed', sessionJson(session), false)
      setImmediate(() => void deliver(webhook))
    }
    return redirect(res, session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', session.id))
  }

  function orderPage(res: ServerResponse, order: Order) {
    const open = order.status === 'PAYER_ACTION_REQUIRED'
    page(
      res,
      200,
      `PayPal checkout — ${order.invoiceNumber ?? order.id}`,
      `${details([
        ['Description', order.description ?? ''],
        ['Invoice', order.invoiceNumber ?? ''],
        ['Amount', formatAmount(order.amount.value, order.amount.currency_code)],
      ])}
      ${open ? buttons(order.id, 'Decline: the buyer approves, and PayPal denies the capture.') : `<p role="status">This order is ${escapeHtml(order.status.toLowerCase())}.</p>`}`,
    )
  }

  function sessionPage(res: ServerResponse, session: Session) {
    const open = session.status === 'open'
    page(
      res,
      200,
      `Stripe Checkout — ${session.metadata.invoice_number ?? session.id}`,
      `${details([
        ['Description', session.name],
        ['Invoice', session.metadata.invoice_number ?? ''],
        [
          'Amount',
          formatAmount(
            zeroDecimal(session.currency)
              ? String(session.amountTotal)
              : (session.amountTotal / 100).toFixed(2),
            session.currency.toUpperCase(),
          ),
        ],
      ])}
      ${open ? buttons(session.id, 'Decline: the card is refused and the checkout ends unpaid.') : `<p role="status">This checkout is ${escapeHtml(session.status)}.</p>`}`,
    )
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

function buttons(ref: string, declineNote: string) {
  const action = (name: string) => `/pay/${encodeURIComponent(ref)}/${name}`
  return `<p>This page stands in for the provider’s checkout in tests and development. No money moves.</p>
      <form method="post" action="${action('approve')}"><button type="submit">Approve payment</button></form>
      <form method="post" action="${action('decline')}"><button type="submit">Decline</button></form>
      <form method="post" action="${action('cancel')}"><button type="submit">Cancel and return</button></form>
      <p>${escapeHtml(declineNote)} Cancel and return: back to the shop, nothing paid.</p>`
}

function details(rows: [string, string][]) {
  return `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`
}

function page(res: ServerResponse, status: number, title: string, content: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} (local stand-in)</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111;background:#fff}form{display:inline-block;margin:0 .5rem .5rem 0}button{font:inherit;padding:.5rem 1rem}dt{font-weight:600}dd{margin:0 0 .5rem}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>`)
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, 'cache-control': 'no-store' })
  res.end()
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': 'standin' })
  res.end(JSON.stringify(body))
}

function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

function paypalProblem(name: string, issue: string, status: number) {
  return {
    name,
    message: status === 422 ? 'The requested action could not be performed.' : 'Request is not well-formed.',
    debug_id: randomBytes(6).toString('hex'),
    details: [{ issue, description: issue.toLowerCase().replaceAll('_', ' ') }],
  }
}

function stripeProblem(code: string, param: string, message: string) {
  return { error: { type: 'invalid_request_error', code, param, message } }
}

/** 17 upper-case letters and digits, like PayPal's order and capture ids. */
function paypalId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
  return [...randomBytes(17)].map((byte) => alphabet[byte % alphabet.length]).join('')
}

function zeroDecimal(currency: string) {
  return ['JPY', 'KRW', 'VND', 'CLP', 'PYG', 'XAF', 'XOF', 'UGX'].includes(currency.toUpperCase())
}

function formatAmount(value: string, currency: string) {
  const number = Number(value)
  return `${new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(number)} (${currency})`
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
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
      'usage: node tests/support/payment-stand-in.ts [--port 4010] [--host 127.0.0.1] [--webhook-url URL]',
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
