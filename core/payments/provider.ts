import { createDLocalProvider, DLOCAL_LIVE_API_URL, DLOCAL_SANDBOX_API_URL } from './dlocal.ts'
import type { LocalCountry, LocalMethodId } from './local-methods.ts'
import { createPayPalProvider, PAYPAL_LIVE_API_URL, PAYPAL_SANDBOX_API_URL } from './paypal.ts'
import { createStripeProvider, STRIPE_API_URL } from './stripe.ts'

/**
 * The payment provider port: what the invoice/payment service asks of a provider (PayPal Orders
 * v2, Stripe Checkout), and nothing of how each one does it. Adapters talk to the provider with
 * `fetch` at a base URL from the environment, so tests and development point them at the local
 * stand-in (tests/support/payment-stand-in/server.ts) and run the production code paths.
 *
 * Rules every adapter keeps:
 * - Amounts are whole yen (JPY has no minor unit at either provider).
 * - Failures are AppError('upstream_failed') with `reason`:
 *   `paymentProviderDown` (network failure, timeout, 429, 5xx, an answer we cannot read: try again
 *   later) or `paymentRefused` (a 4xx the adapter does not handle: bad credentials, unknown
 *   reference, a reused idempotency key with other parameters; retrying will not help).
 *   A bad argument (amount not a positive whole number, malformed reference) is AppError('invalid').
 * - Nothing secret (keys, tokens, signatures) is logged, put in an error or returned.
 * - Outcomes report what the provider says, even when it disagrees with the invoice (another
 *   amount or currency): comparing with the invoice is the service's job.
 */
export type ProviderName = 'paypal' | 'stripe' | 'dlocal'

export type CheckoutInput = {
  /** Our invoice id: sent as PayPal `custom_id` / Stripe `client_reference_id` and metadata; comes back in outcomes. */
  invoiceId: string
  /** The invoice number people see: PayPal `invoice_id`, Stripe `metadata[invoice_number]`. */
  invoiceNumber: string
  /** Whole yen, > 0. */
  amountJpy: number
  /** What the customer sees on the provider's page (PayPal keeps the first 127 characters). */
  description: string
  /**
   * Where the provider sends the customer after paying. PayPal appends `token=<order id>&PayerID=…`;
   * Stripe appends `session_id=<session id>` (unless the URL already holds `{CHECKOUT_SESSION_ID}`).
   * Put your own payment id in it and confirm the stored providerRef: do not trust the query.
   */
  returnUrl: string
  /** Where the customer lands on cancelling (PayPal appends `token=<order id>`). */
  cancelUrl: string
  /** es → PayPal es-MX, Stripe es-419 (Latin-American Spanish, as the site); en → en-US / en. */
  locale: 'es' | 'en'
  /** One per payment attempt: a retry with the same key gets the same order/session back. */
  idempotencyKey: string
  /**
   * dLocal only (docs/decisions/051): the customer's country and the local method they chose,
   * and who pays (dLocal requires a name and an e-mail). Other providers ignore it.
   */
  localPayment?: { country: LocalCountry; method: LocalMethodId; payer: { name: string; email: string } }
  /** Where the provider posts its notifications for this payment (dLocal `notification_url`). */
  notificationUrl?: string
}

/** What an asynchronous method leaves the customer to pay with: a voucher, a transfer reference, a QR code. */
export type Voucher = {
  /** The number the cashier or the bank asks for (OXXO reference, SPEI CLABE, PagoEfectivo CIP…). */
  reference: string
  /** A barcode's digits or a PIX copy-and-paste code, when there is one. */
  barcode: string | null
  /** The provider's page with the printable voucher or the QR code (https). */
  url: string | null
  /** When it stops being payable (the provider's expiry). */
  expiresAt: Date | null
}

/** The charge in the customer's currency, at the provider's rate when the checkout was made. */
export type LocalAmount = {
  /** ISO 4217, upper case (MXN). */
  currency: string
  /** In the currency's minor units (centavos), a whole number. */
  amountMinor: number
  /** Local units per yen, as the provider quoted it (decimal text, kept as is). */
  rate: string
}

export type Checkout = {
  /** PayPal order id / Stripe Checkout Session id. */
  providerRef: string
  /** The provider's page to send the customer to. */
  payUrl: string
  /** dLocal: the local amount charged. */
  local?: LocalAmount | null
  /** dLocal's asynchronous methods: what the customer pays with later. */
  voucher?: Voucher | null
}

export type PaymentOutcome = {
  providerRef: string
  /**
   * succeeded: money captured (PayPal capture COMPLETED, also when since refunded; Stripe
   * payment_status paid). failed: declined, voided or expired. pending: anything else (not
   * approved yet, approved but not captured, an asynchronous payment still on its way).
   */
  status: 'pending' | 'succeeded' | 'failed'
  /** PayPal capture id / Stripe PaymentIntent id, once there is one. */
  captureRef: string | null
  /**
   * The amount the provider reports (captured, or else ordered) in whole yen, when `currency` is
   * JPY; null when it reports another currency or no amount.
   */
  amountJpy: number | null
  /** As the provider reports it, upper case ('JPY'). */
  currency: string | null
  /** What we sent as custom_id / client_reference_id (metadata[invoice_id] as a fallback). */
  invoiceId: string | null
  /**
   * dLocal charges in the customer's currency: what it reports, in minor units (the service
   * compares it with the amount quoted at checkout). `amountJpy` is then null.
   */
  local?: { currency: string; amountMinor: number } | null
}

export type VerifiedWebhook = {
  /** The provider's event id: the same on every redelivery, so it is the dedupe key. */
  eventId: string
  type: string
  /** Null for event types this port ignores (refunds, disputes…: not handled yet). */
  outcome: PaymentOutcome | null
  refused?: never
}

/**
 * Why a webhook delivery was refused, for the log: no signature headers, a timestamp outside the
 * tolerance, a signature that does not match (forged or tampered), a body that is not an event,
 * or headers the provider itself cannot verify.
 */
export type WebhookRefusal = {
  refused: 'unsigned' | 'stale' | 'signature' | 'unreadable' | 'unverifiable'
  eventId?: never
  type?: never
  outcome?: never
}

export type RefundInput = {
  /** PayPal capture id / Stripe PaymentIntent id: the money taken. */
  captureRef: string
  /** Whole yen, > 0, at most what is left of the capture. */
  amountJpy: number
  /** One per refund: a retry with the same key refunds once and gets the same refund back. */
  idempotencyKey: string
  /**
   * A payment taken in local currency (dLocal): what was captured, in minor units and in yen, so
   * the adapter refunds the same share of the local amount (never more than was captured).
   */
  local?: { currency: string; amountMinor: number; capturedJpy: number }
}

export type Refund = {
  /** PayPal refund id / Stripe refund id. */
  refundRef: string
  /** succeeded: on its way back to the customer; pending: the provider is still processing it. */
  status: 'succeeded' | 'pending'
}

/**
 * Where a refund made earlier stands now: succeeded (gone back), pending (still processing), or
 * failed (PayPal FAILED or CANCELLED; Stripe failed or canceled: the money did not go back).
 */
export type RefundState = 'succeeded' | 'pending' | 'failed'

export interface PaymentProvider {
  readonly name: ProviderName
  createCheckout(input: CheckoutInput): Promise<Checkout>
  /**
   * The customer came back: PayPal captures the approved order (idempotent: the capture carries
   * PayPal-Request-Id `capture-<order id>`, and an order already captured is read instead),
   * Stripe retrieves the session. Safe to call any number of times.
   */
  confirm(providerRef: string): Promise<PaymentOutcome>
  /** Read-only status, for the reconciliation job. */
  lookup(providerRef: string): Promise<PaymentOutcome>
  /**
   * Gives money back on a captured payment (PayPal: POST /v2/payments/captures/:id/refund with
   * PayPal-Request-Id; Stripe: POST /v1/refunds with Idempotency-Key). A refund the provider
   * refuses or reports failed is AppError('upstream_failed', `paymentRefused`).
   */
  refund(input: RefundInput): Promise<Refund>
  /**
   * Read-only: where a refund made earlier stands (PayPal GET /v2/payments/refunds/:id, Stripe
   * GET /v1/refunds/:id), for the reconciliation job that confirms pending refunds.
   */
  lookupRefund(refundRef: string): Promise<RefundState>
  /**
   * Verifies a webhook delivery: the raw body exactly as received (decoded as UTF-8) and its
   * headers (any case). Returns why when it is forged or unverifiable (`refused`). Throws
   * AppError('upstream_failed') if the provider cannot be asked (PayPal verifies by postback).
   */
  verifyWebhook(
    headers: Record<string, string | undefined>,
    rawBody: string,
  ): Promise<VerifiedWebhook | WebhookRefusal>
}

/**
 * The providers the environment configures, PayPal first; an empty list means manual payments only.
 *
 * - PayPal when PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID are all set.
 *   PAYPAL_ENV is `sandbox` (default: https://api-m.sandbox.paypal.com) or `live`
 *   (https://api-m.paypal.com): money moves only when someone says `live` on purpose.
 *   PAYPAL_API_URL overrides both (the local stand-in).
 * - Stripe when STRIPE_SECRET_KEY (sk_… or restricted rk_…) and STRIPE_WEBHOOK_SECRET (whsec_…)
 *   are set; STRIPE_API_URL defaults to https://api.stripe.com. Test or live follows the key.
 * - PAYMENT_PROVIDER_TIMEOUT_SECONDS (default 10) bounds every call to a provider.
 *
 * A provider configured by halves, or a bad value, throws an Error naming each variable (as
 * server/env.ts does): a shop that silently stops taking card payments is worse than one that
 * does not start. API URLs must be https, or http on loopback only (the secret travels with
 * every call). Empty values count as unset.
 */
export function paymentProvidersFromEnv(
  env: NodeJS.ProcessEnv,
  fetchImpl: typeof fetch = globalThis.fetch,
): PaymentProvider[] {
  const value = (name: string) => env[name]?.trim() || null
  const problems: string[] = []
  const providers: PaymentProvider[] = []

  let timeoutMs = 10_000
  const timeout = value('PAYMENT_PROVIDER_TIMEOUT_SECONDS')
  if (timeout !== null) {
    const seconds = Number(timeout)
    if (Number.isFinite(seconds) && seconds >= 1 && seconds <= 120) timeoutMs = Math.round(seconds * 1000)
    else problems.push('PAYMENT_PROVIDER_TIMEOUT_SECONDS: must be a number of seconds from 1 to 120')
  }

  const apiUrl = (name: string, fallback: string) => {
    const url = value(name) ?? fallback
    if (!isSafeApiUrl(url)) {
      problems.push(`${name}: must be an https:// address (http:// only on localhost), without query`)
    }
    return url.replace(/\/+$/, '')
  }

  const paypal = ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const
  const paypalSet = paypal.filter((name) => value(name) !== null)
  const paypalEnv = value('PAYPAL_ENV') ?? 'sandbox'
  if (paypalEnv !== 'sandbox' && paypalEnv !== 'live') problems.push('PAYPAL_ENV: must be sandbox or live')
  if (paypalSet.length > 0 && paypalSet.length < paypal.length) {
    for (const name of paypal.filter((name) => value(name) === null)) {
      problems.push(`${name}: required with ${paypalSet.join(', ')} (PayPal needs all three)`)
    }
  } else if (paypalSet.length === paypal.length) {
    const url = apiUrl('PAYPAL_API_URL', paypalEnv === 'live' ? PAYPAL_LIVE_API_URL : PAYPAL_SANDBOX_API_URL)
    providers.push(
      createPayPalProvider({
        clientId: value('PAYPAL_CLIENT_ID') ?? '',
        clientSecret: value('PAYPAL_CLIENT_SECRET') ?? '',
        webhookId: value('PAYPAL_WEBHOOK_ID') ?? '',
        apiUrl: url,
        timeoutMs,
        fetch: fetchImpl,
      }),
    )
  }

  const secretKey = value('STRIPE_SECRET_KEY')
  const webhookSecret = value('STRIPE_WEBHOOK_SECRET')
  if (secretKey !== null && !/^(sk|rk)_/.test(secretKey)) {
    problems.push(
      'STRIPE_SECRET_KEY: must be a secret (sk_…) or restricted (rk_…) key, not a publishable one',
    )
  }
  if (webhookSecret !== null && !webhookSecret.startsWith('whsec_')) {
    problems.push('STRIPE_WEBHOOK_SECRET: must be the endpoint’s signing secret (whsec_…)')
  }
  if ((secretKey === null) !== (webhookSecret === null)) {
    problems.push(
      secretKey === null
        ? 'STRIPE_SECRET_KEY: required with STRIPE_WEBHOOK_SECRET'
        : 'STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY',
    )
  } else if (secretKey !== null && webhookSecret !== null) {
    providers.push(
      createStripeProvider({
        secretKey,
        webhookSecret,
        apiUrl: apiUrl('STRIPE_API_URL', STRIPE_API_URL),
        timeoutMs,
        fetch: fetchImpl,
      }),
    )
  }

  // dLocal (docs/decisions/051): DLOCAL_LOGIN, DLOCAL_TRANS_KEY and DLOCAL_SECRET_KEY, all or none;
  // DLOCAL_ENV sandbox (default) or live; DLOCAL_API_URL overrides both (the local stand-in).
  const dlocal = ['DLOCAL_LOGIN', 'DLOCAL_TRANS_KEY', 'DLOCAL_SECRET_KEY'] as const
  const dlocalSet = dlocal.filter((name) => value(name) !== null)
  const dlocalEnv = value('DLOCAL_ENV') ?? 'sandbox'
  if (dlocalEnv !== 'sandbox' && dlocalEnv !== 'live') problems.push('DLOCAL_ENV: must be sandbox or live')
  if (dlocalSet.length > 0 && dlocalSet.length < dlocal.length) {
    for (const name of dlocal.filter((name) => value(name) === null)) {
      problems.push(`${name}: required with ${dlocalSet.join(', ')} (dLocal needs all three)`)
    }
  } else if (dlocalSet.length === dlocal.length) {
    providers.push(
      createDLocalProvider({
        login: value('DLOCAL_LOGIN') ?? '',
        transKey: value('DLOCAL_TRANS_KEY') ?? '',
        secretKey: value('DLOCAL_SECRET_KEY') ?? '',
        apiUrl: apiUrl('DLOCAL_API_URL', dlocalEnv === 'live' ? DLOCAL_LIVE_API_URL : DLOCAL_SANDBOX_API_URL),
        timeoutMs,
        fetch: fetchImpl,
      }),
    )
  }

  if (problems.length > 0)
    throw new Error(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`)
  return providers
}

function isSafeApiUrl(value: string): boolean {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  return (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && !url.search && !url.hash
}
