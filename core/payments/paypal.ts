import { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'
import type {
  Checkout,
  CheckoutInput,
  PaymentOutcome,
  PaymentProvider,
  Refund,
  RefundInput,
  RefundState,
  VerifiedWebhook,
  WebhookRefusal,
} from './provider.ts'
import {
  callProvider,
  checkCheckoutInput,
  checkRef,
  lowerCaseHeaders,
  type ProviderAnswer,
  type ProviderHttp,
  providerDown,
  providerRefused,
  wholeYen,
} from './provider-http.ts'

export const PAYPAL_LIVE_API_URL = 'https://api-m.paypal.com'
export const PAYPAL_SANDBOX_API_URL = 'https://api-m.sandbox.paypal.com'

export type PayPalConfig = {
  clientId: string
  clientSecret: string
  /** The id PayPal gave the webhook that points at us: verification is per webhook. */
  webhookId: string
  /** PAYPAL_LIVE_API_URL, PAYPAL_SANDBOX_API_URL, or a local stand-in. */
  apiUrl: string
  /** Per call; default 10 s. */
  timeoutMs?: number
  fetch?: typeof fetch
  /** Shown on PayPal's page instead of the account's business name. */
  brandName?: string
  /** Milliseconds since the epoch, for the token's expiry (tests). */
  now?: () => number
}

/** PayPal order and capture ids are upper-case letters and digits; the stand-in's too. */
const ORDER_ID = /^[A-Za-z0-9-]{1,64}$/
const CAPTURE_ID = /^[A-Za-z0-9-]{1,64}$/
const RefundAnswer = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/), status: z.string() })

const Amount = z.object({ currency_code: z.string(), value: z.string() })
const Capture = z.object({
  id: z.string(),
  status: z.string(),
  amount: Amount.optional(),
  custom_id: z.string().optional(),
  supplementary_data: z
    .object({ related_ids: z.object({ order_id: z.string().optional() }).optional() })
    .optional(),
})
const Order = z.object({
  id: z.string(),
  status: z.string(),
  purchase_units: z
    .array(
      z.object({
        amount: Amount.optional(),
        custom_id: z.string().optional(),
        payments: z.object({ captures: z.array(Capture).optional() }).optional(),
      }),
    )
    .optional(),
  links: z.array(z.object({ rel: z.string(), href: z.string() })).optional(),
})
type Order = z.infer<typeof Order>
const Token = z.object({ access_token: z.string().min(1), expires_in: z.number() })
const Problem = z.object({
  name: z.string().optional(),
  error: z.string().optional(),
  debug_id: z.string().optional(),
  details: z.array(z.object({ issue: z.string().optional() })).optional(),
})
const Event = z.object({ id: z.string().min(1), event_type: z.string().min(1), resource: z.unknown() })

/** What every PayPal call shares: the HTTP settings and a call authorised with the shared token. */
type PayPalApi = {
  http: ProviderHttp
  call(
    method: 'GET' | 'POST',
    path: string,
    options?: { body?: string; requestId?: string },
  ): Promise<ProviderAnswer>
}

/** The HTTP settings and the OAuth2 token (one, shared by every call) of one provider instance. */
function payPalApi(config: PayPalConfig): PayPalApi {
  const http: ProviderHttp = {
    label: 'PayPal',
    apiUrl: config.apiUrl.replace(/\/+$/, ''),
    fetch: config.fetch ?? globalThis.fetch,
    timeoutMs: config.timeoutMs ?? 10_000,
  }
  const now = config.now ?? Date.now
  const basic = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`

  // OAuth2 client credentials: one token shared by every call until a minute before it expires.
  let token: { value: string; expiresAt: number } | null = null
  let tokenRequest: Promise<string> | null = null

  async function requestToken(): Promise<string> {
    const answer = await callProvider(http, 'POST', '/v1/oauth2/token', {
      headers: {
        authorization: basic,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
    if (answer.status !== 200) throw providerRefused(http, 'the access token', answer.status, problem(answer))
    const parsed = Token.safeParse(answer.body)
    if (!parsed.success) throw providerDown(http, 'POST /v1/oauth2/token', 'answered without an access token')
    token = {
      value: parsed.data.access_token,
      expiresAt: now() + Math.max(0, parsed.data.expires_in - 60) * 1000,
    }
    return token.value
  }

  function accessToken(): Promise<string> {
    if (token && now() < token.expiresAt) return Promise.resolve(token.value)
    tokenRequest ??= requestToken().finally(() => {
      tokenRequest = null
    })
    return tokenRequest
  }

  /** An authorised call; a 401 (token revoked or expired early) gets one new token and one retry. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: string; requestId?: string } = {},
  ): Promise<ProviderAnswer> {
    const attempt = async () => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await accessToken()}`,
        accept: 'application/json',
        prefer: 'return=representation',
      }
      if (method === 'POST') headers['content-type'] = 'application/json'
      if (options.requestId) headers['paypal-request-id'] = options.requestId
      return callProvider(http, method, path, { headers, body: options.body })
    }
    const first = await attempt()
    if (first.status !== 401) return first
    token = null
    return attempt()
  }

  return { http, call }
}

/** The order in an answer, or `paymentProviderDown` when it is not one. */
function readOrder(http: ProviderHttp, answer: ProviderAnswer, what: string): Order {
  const parsed = Order.safeParse(answer.body)
  if (!parsed.success) throw providerDown(http, what, 'answered with something that is not an order')
  return parsed.data
}

/** GET /v2/checkout/orders/:id. */
async function getOrder(api: PayPalApi, id: string): Promise<Order> {
  const path = `/v2/checkout/orders/${id}`
  const answer = await api.call('GET', path)
  if (answer.status !== 200) throw providerRefused(api.http, `GET ${path}`, answer.status, problem(answer))
  return readOrder(api.http, answer, `GET ${path}`)
}

/** Where an order stands, read-only. */
async function lookupOrder(api: PayPalApi, ref: string): Promise<PaymentOutcome> {
  return orderOutcome(await getOrder(api, checkRef(ref, ORDER_ID, 'PayPal order')))
}

/** One capture under `requestId`; 'not-approved' when the buyer has not approved (as far as that id knows). */
async function captureOrder(
  api: PayPalApi,
  id: string,
  requestId: string,
): Promise<PaymentOutcome | 'not-approved'> {
  const path = `/v2/checkout/orders/${id}/capture`
  const answer = await api.call('POST', path, { requestId })
  if (answer.status === 200 || answer.status === 201)
    return orderOutcome(readOrder(api.http, answer, `POST ${path}`))
  const issue = answer.status === 422 ? firstIssue(answer) : null
  // Captured under another request id (or after PayPal forgot ours): read it.
  if (issue === 'ORDER_ALREADY_CAPTURED') return lookupOrder(api, id)
  if (issue === 'ORDER_NOT_APPROVED' || issue === 'PAYER_ACTION_REQUIRED') return 'not-approved'
  // The card was declined, or the invoice number has already been paid at PayPal: this
  // attempt will not take money (the customer may start another).
  if (issue === 'INSTRUMENT_DECLINED' || issue === 'DUPLICATE_INVOICE_ID') {
    const outcome = await lookupOrder(api, id)
    return outcome.status === 'succeeded' ? outcome : { ...outcome, status: 'failed' }
  }
  throw providerRefused(api.http, `POST ${path}`, answer.status, problem(answer))
}

/** An order with intent CAPTURE, and the PayPal page where the customer approves it. */
async function createOrder(
  api: PayPalApi,
  brandName: string | undefined,
  input: CheckoutInput,
): Promise<Checkout> {
  checkCheckoutInput(input)
  const experience: Record<string, string> = {
    return_url: input.returnUrl,
    cancel_url: input.cancelUrl,
    locale: input.locale === 'es' ? 'es-MX' : 'en-US',
    user_action: 'PAY_NOW',
    shipping_preference: 'NO_SHIPPING',
    landing_page: 'NO_PREFERENCE',
  }
  if (brandName) experience.brand_name = brandName.slice(0, 127)
  const body = {
    intent: 'CAPTURE',
    purchase_units: [
      {
        invoice_id: input.invoiceNumber,
        custom_id: input.invoiceId,
        description: [...input.description].slice(0, 127).join(''),
        // JPY has no decimals at PayPal: a decimal value is refused.
        amount: { currency_code: 'JPY', value: String(input.amountJpy) },
      },
    ],
    payment_source: { paypal: { experience_context: experience } },
  }
  const path = '/v2/checkout/orders'
  const answer = await api.call('POST', path, { body: JSON.stringify(body), requestId: input.idempotencyKey })
  if (answer.status !== 200 && answer.status !== 201) {
    throw providerRefused(api.http, `POST ${path}`, answer.status, problem(answer))
  }
  const order = readOrder(api.http, answer, `POST ${path}`)
  const link =
    order.links?.find((candidate) => candidate.rel === 'payer-action') ??
    order.links?.find((candidate) => candidate.rel === 'approve')
  if (!link) throw providerDown(api.http, `POST ${path}`, 'answered an order without an approval link')
  return { providerRef: order.id, payUrl: link.href }
}

/** The customer came back: capture the approved order, idempotently. */
async function confirmOrder(api: PayPalApi, ref: string): Promise<PaymentOutcome> {
  const id = checkRef(ref, ORDER_ID, 'PayPal order')
  // The same request id every time: PayPal answers a repeated capture with the first result.
  const first = await captureOrder(api, id, `capture-${id}`)
  if (first !== 'not-approved') return first
  const order = await getOrder(api, id)
  if (order.status !== 'APPROVED') return orderOutcome(order)
  // Approved since a call that came too early: PayPal may keep answering that request id
  // with its refusal, so capture once more under a second fixed id (idempotent as well).
  const second = await captureOrder(api, id, `capture-${id}-approved`)
  return second === 'not-approved' ? orderOutcome(await getOrder(api, id)) : second
}

/** POST /v2/payments/captures/:id/refund under the refund's idempotency key. */
async function refundCapture(api: PayPalApi, input: RefundInput): Promise<Refund> {
  const id = checkRef(input.captureRef, CAPTURE_ID, 'PayPal capture')
  if (!Number.isInteger(input.amountJpy) || input.amountJpy <= 0) {
    throw new AppError('invalid', 'A refund is a positive whole number of yen')
  }
  const path = `/v2/payments/captures/${id}/refund`
  const answer = await api.call('POST', path, {
    body: JSON.stringify({ amount: { currency_code: 'JPY', value: String(input.amountJpy) } }),
    requestId: input.idempotencyKey,
  })
  if (answer.status !== 200 && answer.status !== 201) {
    throw providerRefused(api.http, `POST ${path}`, answer.status, problem(answer))
  }
  const parsed = RefundAnswer.safeParse(answer.body)
  if (!parsed.success)
    throw providerDown(api.http, `POST ${path}`, 'answered with something that is not a refund')
  if (parsed.data.status === 'COMPLETED') return { refundRef: parsed.data.id, status: 'succeeded' }
  if (parsed.data.status === 'PENDING') return { refundRef: parsed.data.id, status: 'pending' }
  throw providerRefused(api.http, `POST ${path}`, answer.status, `refund ${parsed.data.status.slice(0, 20)}`)
}

/** GET /v2/payments/refunds/:id: where a refund made earlier stands. */
async function lookupRefund(api: PayPalApi, ref: string): Promise<RefundState> {
  const id = checkRef(ref, CAPTURE_ID, 'PayPal refund')
  const path = `/v2/payments/refunds/${id}`
  const answer = await api.call('GET', path)
  if (answer.status !== 200) throw providerRefused(api.http, `GET ${path}`, answer.status, problem(answer))
  const parsed = RefundAnswer.safeParse(answer.body)
  if (!parsed.success)
    throw providerDown(api.http, `GET ${path}`, 'answered with something that is not a refund')
  if (parsed.data.status === 'COMPLETED') return 'succeeded'
  if (parsed.data.status === 'FAILED' || parsed.data.status === 'CANCELLED') return 'failed'
  return 'pending'
}

/** A webhook delivery, verified by postback to verify-webhook-signature. */
async function verifyWebhook(
  api: PayPalApi,
  webhookId: string,
  rawHeaders: Record<string, string | undefined>,
  rawBody: string,
): Promise<VerifiedWebhook | WebhookRefusal> {
  const headers = lowerCaseHeaders(rawHeaders)
  const fields = {
    auth_algo: headers['paypal-auth-algo'],
    cert_url: headers['paypal-cert-url'],
    transmission_id: headers['paypal-transmission-id'],
    transmission_sig: headers['paypal-transmission-sig'],
    transmission_time: headers['paypal-transmission-time'],
  }
  if (Object.values(fields).some((value) => !value)) return { refused: 'unsigned' }
  let event: z.infer<typeof Event>
  try {
    const parsed = Event.safeParse(JSON.parse(rawBody))
    if (!parsed.success) return { refused: 'unreadable' }
    event = parsed.data
  } catch {
    return { refused: 'unreadable' }
  }
  // The event goes back byte for byte: PayPal checks a CRC of the body it sent, and a
  // re-serialised event (other spacing, key order or number format) would fail.
  const request = `${JSON.stringify({ ...fields, webhook_id: webhookId }).slice(0, -1)},"webhook_event":${rawBody.trim()}}`
  const path = '/v1/notifications/verify-webhook-signature'
  const answer = await api.call('POST', path, { body: request })
  // Headers PayPal cannot make sense of (a made-up cert URL…): not verifiable.
  if (answer.status === 400 || answer.status === 422) return { refused: 'unverifiable' }
  if (answer.status !== 200) throw providerRefused(api.http, `POST ${path}`, answer.status, problem(answer))
  const verification = z.object({ verification_status: z.string() }).safeParse(answer.body)
  if (!verification.success)
    throw providerDown(api.http, `POST ${path}`, 'answered without a verification status')
  if (verification.data.verification_status !== 'SUCCESS') return { refused: 'signature' }
  return {
    eventId: event.id,
    type: event.event_type,
    outcome: eventOutcome(event.event_type, event.resource),
  }
}

/**
 * PayPal Orders v2 over REST (the server SDK cannot be pointed at another base URL): an order
 * with intent CAPTURE per checkout, the customer approves on PayPal's page (`payer-action`), we
 * capture on return. Webhooks are verified by postback (verify-webhook-signature).
 */
export function createPayPalProvider(config: PayPalConfig): PaymentProvider {
  const api = payPalApi(config)
  return {
    name: 'paypal',
    createCheckout: (input) => createOrder(api, config.brandName, input),
    confirm: (ref) => confirmOrder(api, ref),
    lookup: (ref) => lookupOrder(api, ref),
    refund: (input) => refundCapture(api, input),
    lookupRefund: (ref) => lookupRefund(api, ref),
    verifyWebhook: (rawHeaders, rawBody) => verifyWebhook(api, config.webhookId, rawHeaders, rawBody),
  }
}

const CAPTURED = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED'])
const CAPTURE_FAILED = new Set(['DECLINED', 'DENIED', 'FAILED'])

function orderOutcome(order: Order): PaymentOutcome {
  const unit = order.purchase_units?.[0]
  const captures = unit?.payments?.captures ?? []
  const capture = captures.find((candidate) => CAPTURED.has(candidate.status)) ?? captures.at(-1) ?? null
  const amount = capture?.amount ?? unit?.amount ?? null
  const currency = amount ? amount.currency_code.toUpperCase() : null
  let status: PaymentOutcome['status'] = order.status === 'VOIDED' ? 'failed' : 'pending'
  if (capture) status = captureStatus(capture.status)
  return {
    providerRef: order.id,
    status,
    captureRef: capture?.id ?? null,
    amountJpy: wholeYen(currency, amount?.value),
    currency,
    invoiceId: capture?.custom_id ?? unit?.custom_id ?? null,
  }
}

function captureStatus(status: string): PaymentOutcome['status'] {
  if (CAPTURED.has(status)) return 'succeeded'
  if (CAPTURE_FAILED.has(status)) return 'failed'
  return 'pending'
}

const CAPTURE_EVENTS: Record<string, PaymentOutcome['status']> = {
  'PAYMENT.CAPTURE.COMPLETED': 'succeeded',
  'PAYMENT.CAPTURE.PENDING': 'pending',
  'PAYMENT.CAPTURE.DENIED': 'failed',
  'PAYMENT.CAPTURE.DECLINED': 'failed',
}

/** The outcome a verified event tells of, or null for the types we ignore (refunds, disputes…). */
function eventOutcome(type: string, resource: unknown): PaymentOutcome | null {
  const captureEventStatus = CAPTURE_EVENTS[type]
  if (captureEventStatus) {
    const parsed = Capture.safeParse(resource)
    const orderId = parsed.success ? parsed.data.supplementary_data?.related_ids?.order_id : undefined
    if (!parsed.success || !orderId) return null
    const capture = parsed.data
    const currency = capture.amount ? capture.amount.currency_code.toUpperCase() : null
    return {
      providerRef: orderId,
      status: captureEventStatus,
      captureRef: capture.id,
      amountJpy: wholeYen(currency, capture.amount?.value),
      currency,
      invoiceId: capture.custom_id ?? null,
    }
  }
  if (type === 'CHECKOUT.ORDER.APPROVED' || type === 'CHECKOUT.ORDER.COMPLETED') {
    const parsed = Order.safeParse(resource)
    return parsed.success ? orderOutcome(parsed.data) : null
  }
  return null
}

function firstIssue(answer: ProviderAnswer): string | null {
  const parsed = Problem.safeParse(answer.body)
  return parsed.success ? (parsed.data.details?.[0]?.issue ?? null) : null
}

/** PayPal's error name, issue and debug id (what its support asks for); never the request. */
function problem(answer: ProviderAnswer): string {
  const parsed = Problem.safeParse(answer.body)
  if (!parsed.success) return ''
  const { name, error, debug_id: debugId } = parsed.data
  return [name ?? error, firstIssue(answer), debugId ? `debug_id ${debugId}` : null]
    .filter((part): part is string => typeof part === 'string' && /^[\w .-]{1,80}$/.test(part))
    .join(' ')
}
