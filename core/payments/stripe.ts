import { createHmac, timingSafeEqual } from 'node:crypto'
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

export const STRIPE_API_URL = 'https://api.stripe.com'

export type StripeConfig = {
  /** sk_… or a restricted rk_… key with Checkout Sessions write access. */
  secretKey: string
  /** The webhook endpoint's signing secret, whsec_…. */
  webhookSecret: string
  /** STRIPE_API_URL or a local stand-in. */
  apiUrl: string
  /** Per call; default 10 s. */
  timeoutMs?: number
  fetch?: typeof fetch
  /** Milliseconds since the epoch, for the signature's age (tests). */
  now?: () => number
  /** Oldest signature accepted, in seconds; Stripe's libraries use 300. */
  toleranceSeconds?: number
}

const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9_]{1,250}$/
const REFUND_ID = /^(re|pyr)_[A-Za-z0-9_]{1,250}$/
const RefundAnswer = z.object({
  id: z.string().regex(REFUND_ID),
  status: z.string().nullable(),
})

const Session = z.object({
  id: z.string(),
  status: z.string().nullable().optional(),
  payment_status: z.string(),
  amount_total: z.number().nullable().optional(),
  currency: z.string().nullable().optional(),
  payment_intent: z
    .union([z.string(), z.object({ id: z.string() })])
    .nullable()
    .optional(),
  client_reference_id: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  url: z.string().nullable().optional(),
})
type Session = z.infer<typeof Session>
const Problem = z.object({
  error: z.object({ type: z.string().optional(), code: z.string().optional() }),
})
const Event = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.object({ object: z.unknown() }),
})

/** What every Stripe call carries: the HTTP settings and the secret key's Authorization header. */
type StripeApi = { http: ProviderHttp; authorization: string }

/** GET /v1/checkout/sessions/:id: where a Checkout Session stands. */
async function retrieveSession(api: StripeApi, ref: string): Promise<PaymentOutcome> {
  const { http, authorization } = api
  const id = checkRef(ref, SESSION_ID, 'Stripe Checkout Session')
  const path = `/v1/checkout/sessions/${id}`
  const answer = await callProvider(http, 'GET', path, { headers: { authorization } })
  if (answer.status !== 200) throw providerRefused(http, `GET ${path}`, answer.status, problem(answer))
  return sessionOutcome(readSession(http, answer, `GET ${path}`))
}

/** A Checkout Session for the invoice, and its page on Stripe. */
async function createSession(api: StripeApi, input: CheckoutInput): Promise<Checkout> {
  const { http, authorization } = api
  checkCheckoutInput(input)
  const form = new URLSearchParams({
    mode: 'payment',
    // JPY is zero-decimal at Stripe: unit_amount 12345 is ¥12,345.
    'line_items[0][price_data][currency]': 'jpy',
    'line_items[0][price_data][unit_amount]': String(input.amountJpy),
    'line_items[0][price_data][product_data][name]': input.description,
    'line_items[0][quantity]': '1',
    client_reference_id: input.invoiceId,
    'metadata[invoice_id]': input.invoiceId,
    'metadata[invoice_number]': input.invoiceNumber,
    'payment_intent_data[metadata][invoice_id]': input.invoiceId,
    'payment_intent_data[metadata][invoice_number]': input.invoiceNumber,
    success_url: withSessionId(input.returnUrl),
    cancel_url: input.cancelUrl,
    // Stripe's `es` is Spain's Spanish; the site speaks Latin-American Spanish.
    locale: input.locale === 'es' ? 'es-419' : 'en',
  })
  const path = '/v1/checkout/sessions'
  const answer = await callProvider(http, 'POST', path, {
    headers: {
      authorization,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': input.idempotencyKey,
    },
    body: form.toString(),
  })
  if (answer.status !== 200) throw providerRefused(http, `POST ${path}`, answer.status, problem(answer))
  const session = readSession(http, answer, `POST ${path}`)
  if (!session.url) throw providerDown(http, `POST ${path}`, 'answered a session without a URL')
  return { providerRef: session.id, payUrl: session.url }
}

/** POST /v1/refunds on the PaymentIntent, under the refund's idempotency key. */
async function createRefund(api: StripeApi, input: RefundInput): Promise<Refund> {
  const { http, authorization } = api
  const intent = checkRef(input.captureRef, PAYMENT_INTENT_ID, 'Stripe PaymentIntent')
  if (!Number.isInteger(input.amountJpy) || input.amountJpy <= 0) {
    throw new AppError('invalid', 'A refund is a positive whole number of yen')
  }
  const path = '/v1/refunds'
  const answer = await callProvider(http, 'POST', path, {
    headers: {
      authorization,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': input.idempotencyKey,
    },
    // JPY is zero-decimal at Stripe: amount 1500 is ¥1,500.
    body: new URLSearchParams({ payment_intent: intent, amount: String(input.amountJpy) }).toString(),
  })
  if (answer.status !== 200) throw providerRefused(http, `POST ${path}`, answer.status, problem(answer))
  const parsed = RefundAnswer.safeParse(answer.body)
  if (!parsed.success)
    throw providerDown(http, `POST ${path}`, 'answered with something that is not a refund')
  if (parsed.data.status === 'succeeded') return { refundRef: parsed.data.id, status: 'succeeded' }
  if (parsed.data.status === 'pending' || parsed.data.status === 'requires_action') {
    return { refundRef: parsed.data.id, status: 'pending' }
  }
  throw providerRefused(
    http,
    `POST ${path}`,
    answer.status,
    `refund ${String(parsed.data.status).slice(0, 20)}`,
  )
}

/** GET /v1/refunds/:id: where a refund made earlier stands. */
async function retrieveRefund(api: StripeApi, ref: string): Promise<RefundState> {
  const { http, authorization } = api
  const id = checkRef(ref, REFUND_ID, 'Stripe refund')
  const path = `/v1/refunds/${id}`
  const answer = await callProvider(http, 'GET', path, { headers: { authorization } })
  if (answer.status !== 200) throw providerRefused(http, `GET ${path}`, answer.status, problem(answer))
  const parsed = RefundAnswer.safeParse(answer.body)
  if (!parsed.success) throw providerDown(http, `GET ${path}`, 'answered with something that is not a refund')
  if (parsed.data.status === 'succeeded') return 'succeeded'
  if (parsed.data.status === 'failed' || parsed.data.status === 'canceled') return 'failed'
  return 'pending'
}

/** A webhook delivery, verified locally: Stripe-Signature's age and HMAC-SHA256 with the endpoint secret. */
async function verifyWebhook(
  signing: { webhookSecret: string; now: () => number; tolerance: number },
  rawHeaders: Record<string, string | undefined>,
  rawBody: string,
): Promise<VerifiedWebhook | WebhookRefusal> {
  const { now, tolerance } = signing
  const header = lowerCaseHeaders(rawHeaders)['stripe-signature']
  if (!header) return { refused: 'unsigned' }
  let timestamp: string | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && timestamp === null) timestamp = value ?? null
    if (key === 'v1' && value) signatures.push(value)
  }
  if (timestamp === null || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0)
    return { refused: 'unsigned' }
  if (Math.abs(now() / 1000 - Number(timestamp)) > tolerance) return { refused: 'stale' }
  const expected = createHmac('sha256', signing.webhookSecret).update(`${timestamp}.${rawBody}`).digest()
  const matches = signatures.some(
    (signature) =>
      /^[0-9a-f]{64}$/.test(signature) && timingSafeEqual(Buffer.from(signature, 'hex'), expected),
  )
  if (!matches) return { refused: 'signature' }
  let event: z.infer<typeof Event>
  try {
    const parsed = Event.safeParse(JSON.parse(rawBody))
    if (!parsed.success) return { refused: 'unreadable' }
    event = parsed.data
  } catch {
    return { refused: 'unreadable' }
  }
  return { eventId: event.id, type: event.type, outcome: eventOutcome(event.type, event.data.object) }
}

/**
 * Stripe Checkout Sessions over REST (form-encoded, Bearer secret key): one session per
 * checkout on Stripe's hosted page; the return and webhooks read the session. Webhooks are
 * verified locally (Stripe-Signature, HMAC-SHA256 with the endpoint secret).
 */
export function createStripeProvider(config: StripeConfig): PaymentProvider {
  const http: ProviderHttp = {
    label: 'Stripe',
    apiUrl: config.apiUrl.replace(/\/+$/, ''),
    fetch: config.fetch ?? globalThis.fetch,
    timeoutMs: config.timeoutMs ?? 10_000,
  }
  const now = config.now ?? Date.now
  const tolerance = config.toleranceSeconds ?? 300
  const api: StripeApi = { http, authorization: `Bearer ${config.secretKey}` }
  const retrieve = (ref: string) => retrieveSession(api, ref)

  return {
    name: 'stripe',
    createCheckout: (input) => createSession(api, input),
    // Stripe takes the payment on its page; coming back only reads the session.
    confirm: retrieve,
    lookup: retrieve,
    refund: (input) => createRefund(api, input),
    lookupRefund: (ref) => retrieveRefund(api, ref),
    verifyWebhook: (rawHeaders, rawBody) =>
      verifyWebhook({ webhookSecret: config.webhookSecret, now, tolerance }, rawHeaders, rawBody),
  }
}

/** Stripe fills `{CHECKOUT_SESSION_ID}` in the success URL; the placeholder must stay unescaped. */
function withSessionId(url: string): string {
  if (url.includes('{CHECKOUT_SESSION_ID}')) return url
  const hashAt = url.indexOf('#')
  const base = hashAt === -1 ? url : url.slice(0, hashAt)
  const hash = hashAt === -1 ? '' : url.slice(hashAt)
  return `${base}${base.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}${hash}`
}

function readSession(http: ProviderHttp, answer: ProviderAnswer, what: string): Session {
  const parsed = Session.safeParse(answer.body)
  if (!parsed.success)
    throw providerDown(http, what, 'answered with something that is not a Checkout Session')
  return parsed.data
}

function sessionOutcome(session: Session): PaymentOutcome {
  const currency = session.currency ? session.currency.toUpperCase() : null
  let status: PaymentOutcome['status'] = 'pending'
  // no_payment_required cannot happen for an amount above zero; if it does, the amount tells.
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
    status = 'succeeded'
  else if (session.status === 'expired') status = 'failed'
  const intent = session.payment_intent
  return {
    providerRef: session.id,
    status,
    captureRef: typeof intent === 'string' ? intent : (intent?.id ?? null),
    amountJpy: wholeYen(currency, session.amount_total),
    currency,
    invoiceId: session.client_reference_id ?? session.metadata?.invoice_id ?? null,
  }
}

/**
 * completed: paid now (card), or pending when the method is asynchronous (konbini, bank
 * transfer), which then ends in async_payment_succeeded or _failed. expired: never paid.
 */
const SESSION_EVENTS: Record<string, PaymentOutcome['status'] | 'as-session'> = {
  'checkout.session.completed': 'as-session',
  'checkout.session.async_payment_succeeded': 'succeeded',
  'checkout.session.async_payment_failed': 'failed',
  'checkout.session.expired': 'failed',
}

function eventOutcome(type: string, object: unknown): PaymentOutcome | null {
  const mapped = SESSION_EVENTS[type]
  if (!mapped) return null
  const parsed = Session.safeParse(object)
  if (!parsed.success) return null
  const outcome = sessionOutcome(parsed.data)
  return mapped === 'as-session' ? outcome : { ...outcome, status: mapped }
}

/** Stripe's error type and code; not its message, which can quote the key (masked, but still). */
function problem(answer: ProviderAnswer): string {
  const parsed = Problem.safeParse(answer.body)
  if (!parsed.success) return ''
  return [parsed.data.error.type, parsed.data.error.code]
    .filter((part): part is string => typeof part === 'string' && /^[\w.-]{1,80}$/.test(part))
    .join(' ')
}
