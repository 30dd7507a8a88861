import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'
import { LOCAL_PAYMENT_COUNTRIES, localMethod } from './local-methods.ts'
import type {
  Checkout,
  CheckoutInput,
  LocalAmount,
  PaymentOutcome,
  PaymentProvider,
  Refund,
  RefundInput,
  RefundState,
  VerifiedWebhook,
  Voucher,
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
} from './provider-http.ts'

export const DLOCAL_SANDBOX_API_URL = 'https://sandbox.dlocal.com'
export const DLOCAL_LIVE_API_URL = 'https://api.dlocal.com'

/**
 * dLocal Payins API v2.1 (docs/decisions/051): one payment per checkout, in the customer's
 * currency at dLocal's quote (GET /currency-exchanges), with the method the customer chose
 * (`payment_method_flow` DIRECT for vouchers, transfers and QR codes, answered with a `ticket`;
 * REDIRECT for Webpay, PSE and cards, answered with a `redirect_url`). Every call is signed:
 * `Authorization: V2-HMAC-SHA256, Signature: hex(HMAC-SHA256(secret, X-Login + X-Date + body))`;
 * notifications are signed the same way and carry the payment object.
 */
export type DLocalConfig = {
  login: string
  transKey: string
  secretKey: string
  apiUrl: string
  timeoutMs?: number
  fetch?: typeof fetch
  /** Milliseconds since the epoch (tests). */
  now?: () => number
  /** Oldest notification X-Date accepted, in seconds (default 900). */
  toleranceSeconds?: number
}

const PAYMENT_ID = /^[A-Za-z0-9_-]{1,120}$/
const REFUND_ID = /^[A-Za-z0-9_-]{1,120}$/

const Ticket = z
  .object({
    number: z.union([z.string(), z.number()]).nullish(),
    id: z.union([z.string(), z.number()]).nullish(),
    barcode: z.string().nullish(),
    qr_code: z.string().nullish(),
    expiration_date: z.string().nullish(),
    image_url: z.string().nullish(),
  })
  .passthrough()

const Payment = z
  .object({
    id: z.string().regex(PAYMENT_ID),
    amount: z.union([z.number(), z.string()]),
    currency: z.string(),
    status: z.string(),
    order_id: z.string().nullish(),
    redirect_url: z.string().nullish(),
    ticket: Ticket.nullish(),
  })
  .passthrough()
type Payment = z.infer<typeof Payment>

const Quote = z.object({ rate: z.union([z.number(), z.string()]) }).passthrough()
const RefundAnswer = z.object({ id: z.string().regex(REFUND_ID), status: z.string() }).passthrough()
const Problem = z.object({ code: z.union([z.number(), z.string()]).optional() }).passthrough()

/** The signature every call and notification carries. */
export function dlocalSignature(secretKey: string, login: string, date: string, body: string): string {
  return createHmac('sha256', secretKey).update(`${login}${date}${body}`).digest('hex')
}

export function dlocalAuthorization(secretKey: string, login: string, date: string, body: string): string {
  return `V2-HMAC-SHA256, Signature: ${dlocalSignature(secretKey, login, date, body)}`
}

type DLocalApi = { http: ProviderHttp; config: DLocalConfig }

async function call(api: DLocalApi, method: 'GET' | 'POST', path: string, body?: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body)
  const date = new Date().toISOString()
  const { login, transKey, secretKey } = api.config
  return callProvider(api.http, method, path, {
    headers: {
      'x-date': date,
      'x-login': login,
      'x-trans-key': transKey,
      'x-version': '2.1',
      'content-type': 'application/json',
      'user-agent': 'japan-proxy-storefront',
      authorization: dlocalAuthorization(secretKey, login, date, text),
    },
    ...(body === undefined ? {} : { body: text }),
  })
}

/** dLocal's quote: local units per yen, now. */
async function quote(api: DLocalApi, currency: string): Promise<string> {
  const path = `/currency-exchanges?from=JPY&to=${currency}`
  const answer = await call(api, 'GET', path)
  if (answer.status !== 200)
    throw providerRefused(api.http, 'GET /currency-exchanges', answer.status, problem(answer))
  const parsed = Quote.safeParse(answer.body)
  const rate = parsed.success ? String(parsed.data.rate) : ''
  if (!/^\d{1,12}(\.\d{1,12})?$/.test(rate) || Number(rate) <= 0) {
    throw providerDown(api.http, 'GET /currency-exchanges', 'answered without a usable rate')
  }
  return rate
}

/**
 * The yen amount in the local currency's minor units at the rate, rounded up (the shop never
 * receives less than the invoice), computed on decimal digits so no float rounding creeps in.
 */
export function localMinorUnits(amountJpy: number, rate: string, decimals: number): number {
  const [whole = '0', fraction = ''] = rate.split('.')
  const scale = 10n ** BigInt(fraction.length)
  const rateScaled = BigInt(whole) * scale + BigInt(fraction || '0')
  const numerator = BigInt(amountJpy) * rateScaled * 10n ** BigInt(decimals)
  const result = (numerator + scale - 1n) / scale
  return Number(result)
}

/** A major-unit amount as dLocal writes it (123.45) in minor units, or null if it is not exact. */
export function minorFromMajor(amount: number | string, decimals: number): number | null {
  // A number as JavaScript writes it (1450.54, 1234.499), never rounded to the decimals first: an
  // amount with more digits than the currency has is not exact, whichever way it is written.
  const text = typeof amount === 'number' ? String(amount) : amount
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(text)
  if (!match) return null
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  if (fraction.length > decimals) return null
  const minor = Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0')
  return Number.isSafeInteger(minor) ? minor : null
}

function majorFromMinor(minor: number, decimals: number): number {
  return decimals === 0 ? minor : Number((minor / 10 ** decimals).toFixed(decimals))
}

function decimalsOf(currency: string): number {
  for (const country of Object.values(LOCAL_PAYMENT_COUNTRIES)) {
    if (country.currency === currency) return country.decimals
  }
  return 2
}

async function createPayment(api: DLocalApi, input: CheckoutInput): Promise<Checkout> {
  checkCheckoutInput(input)
  const local = input.localPayment
  const method = local ? localMethod(local.country, local.method) : null
  if (!local || !method) throw new AppError('invalid', 'dLocal needs a country and one of its methods')
  const { currency, decimals } = LOCAL_PAYMENT_COUNTRIES[local.country]
  const rate = await quote(api, currency)
  const amountMinor = localMinorUnits(input.amountJpy, rate, decimals)
  const body = {
    amount: majorFromMinor(amountMinor, decimals),
    currency,
    country: local.country,
    payment_method_id: method.code,
    payment_method_flow: method.flow,
    payer: { name: local.payer.name.slice(0, 100), email: local.payer.email },
    order_id: input.idempotencyKey,
    description: input.description.slice(0, 100),
    ...(input.notificationUrl ? { notification_url: input.notificationUrl } : {}),
    callback_url: input.returnUrl,
  }
  const answer = await call(api, 'POST', '/payments', body)
  if (answer.status !== 200 && answer.status !== 201) {
    throw providerRefused(api.http, 'POST /payments', answer.status, problem(answer))
  }
  const payment = readPayment(api.http, answer, 'POST /payments')
  if (payment.status === 'REJECTED' || payment.status === 'CANCELLED') {
    throw providerRefused(api.http, 'POST /payments', answer.status, payment.status)
  }
  const voucher = voucherOf(payment)
  const payUrl = safeUrl(payment.redirect_url) ?? voucher?.url ?? null
  if (!payUrl && !voucher)
    throw providerDown(api.http, 'POST /payments', 'answered without a page or a voucher')
  const localAmount: LocalAmount = { currency, amountMinor, rate }
  // A voucher without a page of its own: the customer's panel shows it (payUrl is our return page).
  return { providerRef: payment.id, payUrl: payUrl ?? input.returnUrl, local: localAmount, voucher }
}

function voucherOf(payment: Payment): Voucher | null {
  const ticket = payment.ticket
  if (!ticket) return null
  const reference = String(ticket.number ?? ticket.id ?? '').slice(0, 120)
  if (!reference) return null
  const expires = ticket.expiration_date ? new Date(ticket.expiration_date) : null
  return {
    reference,
    barcode: (ticket.barcode ?? ticket.qr_code ?? null)?.slice(0, 2000) ?? null,
    url: safeUrl(ticket.image_url) ?? safeUrl(payment.redirect_url),
    expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires : null,
  }
}

/** Only https links (or http on loopback: the stand-in) reach a customer's page. */
function safeUrl(value: string | null | undefined): string | null {
  if (!value || !URL.canParse(value)) return null
  const url = new URL(value)
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopback) ? url.toString() : null
}

function outcomeOf(payment: Payment): PaymentOutcome {
  const currency = payment.currency.toUpperCase()
  const amountMinor = minorFromMajor(payment.amount, decimalsOf(currency))
  let status: PaymentOutcome['status'] = 'pending'
  if (payment.status === 'PAID') status = 'succeeded'
  else if (['REJECTED', 'CANCELLED', 'EXPIRED'].includes(payment.status)) status = 'failed'
  return {
    providerRef: payment.id,
    status,
    captureRef: status === 'succeeded' ? payment.id : null,
    amountJpy: null,
    currency,
    invoiceId: null,
    local: amountMinor === null ? null : { currency, amountMinor },
  }
}

async function retrievePayment(api: DLocalApi, ref: string): Promise<PaymentOutcome> {
  const id = checkRef(ref, PAYMENT_ID, 'dLocal payment')
  const path = `/payments/${id}`
  const answer = await call(api, 'GET', path)
  if (answer.status !== 200) throw providerRefused(api.http, `GET ${path}`, answer.status, problem(answer))
  return outcomeOf(readPayment(api.http, answer, `GET ${path}`))
}

async function createRefund(api: DLocalApi, input: RefundInput): Promise<Refund> {
  const paymentId = checkRef(input.captureRef, PAYMENT_ID, 'dLocal payment')
  if (!Number.isInteger(input.amountJpy) || input.amountJpy <= 0) {
    throw new AppError('invalid', 'A refund is a positive whole number of yen')
  }
  const local = input.local
  if (!local || input.amountJpy > local.capturedJpy) {
    throw new AppError(
      'invalid',
      'A dLocal refund needs the local amount captured, and at most the yen captured',
    )
  }
  const decimals = decimalsOf(local.currency)
  // The same share of the local amount as of the yen; the whole when it is the whole.
  const minor =
    input.amountJpy === local.capturedJpy
      ? local.amountMinor
      : Number((BigInt(local.amountMinor) * BigInt(input.amountJpy)) / BigInt(local.capturedJpy))
  if (minor <= 0) throw new AppError('invalid', 'The refund is less than one minor unit')
  const answer = await call(api, 'POST', '/refunds', {
    payment_id: paymentId,
    amount: majorFromMinor(minor, decimals),
    currency: local.currency,
    id: input.idempotencyKey,
  })
  if (answer.status !== 200) throw providerRefused(api.http, 'POST /refunds', answer.status, problem(answer))
  const parsed = RefundAnswer.safeParse(answer.body)
  if (!parsed.success)
    throw providerDown(api.http, 'POST /refunds', 'answered with something that is not a refund')
  if (parsed.data.status === 'SUCCESS') return { refundRef: parsed.data.id, status: 'succeeded' }
  if (parsed.data.status === 'PENDING') return { refundRef: parsed.data.id, status: 'pending' }
  throw providerRefused(api.http, 'POST /refunds', answer.status, `refund ${parsed.data.status.slice(0, 20)}`)
}

async function retrieveRefund(api: DLocalApi, ref: string): Promise<RefundState> {
  const id = checkRef(ref, REFUND_ID, 'dLocal refund')
  const path = `/refunds/${id}`
  const answer = await call(api, 'GET', path)
  if (answer.status !== 200) throw providerRefused(api.http, `GET ${path}`, answer.status, problem(answer))
  const parsed = RefundAnswer.safeParse(answer.body)
  if (!parsed.success)
    throw providerDown(api.http, `GET ${path}`, 'answered with something that is not a refund')
  if (parsed.data.status === 'SUCCESS') return 'succeeded'
  if (parsed.data.status === 'REJECTED' || parsed.data.status === 'CANCELLED') return 'failed'
  return 'pending'
}

/**
 * A notification: the payment object, signed with our secret over X-Login + X-Date + body. The
 * login must be ours and the date recent; the event id is the payment id and its status (the
 * same status delivered again is a replay; PAID after EXPIRED is a new event).
 */
function verifyNotification(
  config: DLocalConfig,
  rawHeaders: Record<string, string | undefined>,
  rawBody: string,
): VerifiedWebhook | WebhookRefusal {
  const headers = lowerCaseHeaders(rawHeaders)
  const authorization = headers.authorization
  const date = headers['x-date']
  const login = headers['x-login']
  const match = authorization
    ? /^V2-HMAC-SHA256,\s*Signature:\s*([0-9a-f]{64})$/.exec(authorization.trim())
    : null
  if (!match || !date || !login) return { refused: 'unsigned' }
  const at = Date.parse(date)
  const now = (config.now ?? Date.now)()
  if (Number.isNaN(at) || Math.abs(now - at) > (config.toleranceSeconds ?? 900) * 1000)
    return { refused: 'stale' }
  const expected = Buffer.from(dlocalSignature(config.secretKey, config.login, date, rawBody), 'hex')
  const given = Buffer.from(match[1] ?? '', 'hex')
  if (login !== config.login || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { refused: 'signature' }
  }
  let payment: Payment
  try {
    const parsed = Payment.safeParse(JSON.parse(rawBody))
    if (!parsed.success) return { refused: 'unreadable' }
    payment = parsed.data
  } catch {
    return { refused: 'unreadable' }
  }
  return {
    eventId: `${payment.id}:${payment.status}`.slice(0, 200),
    type: `payment.${payment.status.toLowerCase()}`,
    outcome: outcomeOf(payment),
  }
}

export function createDLocalProvider(config: DLocalConfig): PaymentProvider {
  const http: ProviderHttp = {
    label: 'dLocal',
    apiUrl: config.apiUrl.replace(/\/+$/, ''),
    fetch: config.fetch ?? globalThis.fetch,
    timeoutMs: config.timeoutMs ?? 10_000,
  }
  const api: DLocalApi = { http, config }
  const retrieve = (ref: string) => retrievePayment(api, ref)
  return {
    name: 'dlocal',
    createCheckout: (input) => createPayment(api, input),
    // The customer pays on dLocal's page, at the bank or at a shop: coming back only reads.
    confirm: retrieve,
    lookup: retrieve,
    refund: (input) => createRefund(api, input),
    lookupRefund: (ref) => retrieveRefund(api, ref),
    verifyWebhook: async (headers, body) => verifyNotification(config, headers, body),
  }
}

function readPayment(http: ProviderHttp, answer: ProviderAnswer, what: string): Payment {
  const parsed = Payment.safeParse(answer.body)
  if (!parsed.success) throw providerDown(http, what, 'answered with something that is not a payment')
  return parsed.data
}

/** dLocal's numeric error code only; its message can quote what we sent. */
function problem(answer: ProviderAnswer): string {
  const parsed = Problem.safeParse(answer.body)
  const code = parsed.success ? parsed.data.code : undefined
  return code !== undefined && /^\d{1,6}$/.test(String(code)) ? `code ${code}` : ''
}
