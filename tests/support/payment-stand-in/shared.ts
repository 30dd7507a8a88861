import type { ServerResponse } from 'node:http'

// What the payment stand-in's parts share: the public types, the credentials, the state a
// provider's module is given by the server (server.ts), and the HTML and JSON helpers.

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

/**
 * What the server gives a provider's module: the base URL, the test controls it reads (the stand-in
 * object itself), and the webhook log: `record` adds a signed event to `webhooks`, `deliver` posts
 * it to the webhook URL (when one is set) and resolves once answered or failed.
 */
export type StandInCore = {
  readonly url: string
  readonly controls: Pick<PaymentStandIn, 'overrideAmount' | 'paypalDecline' | 'refundStatus' | 'refunds'>
  record(
    provider: StandInProvider,
    eventId: string,
    type: string,
    headers: Record<string, string>,
    body: string,
    forged: boolean,
  ): StandInWebhook
  deliver(webhook: StandInWebhook): Promise<void>
}

/** One provider's part of the stand-in, as the server (server.ts) routes to it. */
export type ProviderStandIn = {
  /** The body every API call of this provider gets while the stand-in is down or failing. */
  readonly unavailable: unknown
  /** An API call that passed the test controls: the status and body to answer. */
  api(method: string, path: string, headers: Record<string, string>, body: string): [number, unknown]
  /** Whether `ref` is one of this provider's orders or sessions (a pay page). */
  has(ref: string): boolean
  /** GET /pay/:ref */
  showPayPage(res: ServerResponse, ref: string): void
  /** POST /pay/:ref/approve, …/decline or …/cancel */
  submitPayPage(res: ServerResponse, ref: string, action: 'approve' | 'decline' | 'cancel'): void
  /** The webhook headers for `body`: the provider's signature, or a wrong one when `forged`. */
  sign(body: string, forged?: boolean): Record<string, string>
  /** A recorded (not yet delivered) webhook that looks real but is not signed by the provider. */
  forgedWebhook(): StandInWebhook
  /** A recorded (not yet delivered), properly signed event about `object`. */
  event(type: string, object: Record<string, unknown>): StandInWebhook
  /** Forgets the request ids / idempotency keys stored. */
  forgetRequestIds(): void
}

export function buttons(ref: string, declineNote: string) {
  const action = (name: string) => `/pay/${encodeURIComponent(ref)}/${name}`
  return `<p>This page stands in for the provider’s checkout in tests and development. No money moves.</p>
      <form method="post" action="${action('approve')}"><button type="submit">Approve payment</button></form>
      <form method="post" action="${action('decline')}"><button type="submit">Decline</button></form>
      <form method="post" action="${action('cancel')}"><button type="submit">Cancel and return</button></form>
      <p>${escapeHtml(declineNote)} Cancel and return: back to the shop, nothing paid.</p>`
}

export function details(rows: [string, string][]) {
  return `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`
}

export function page(res: ServerResponse, status: number, title: string, content: string) {
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

export function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, 'cache-control': 'no-store' })
  res.end()
}

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': 'standin' })
  res.end(JSON.stringify(body))
}

export function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

export function zeroDecimal(currency: string) {
  return ['JPY', 'KRW', 'VND', 'CLP', 'PYG', 'XAF', 'XOF', 'UGX'].includes(currency.toUpperCase())
}

export function formatAmount(value: string, currency: string) {
  const number = Number(value)
  return `${new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(number)} (${currency})`
}

export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
