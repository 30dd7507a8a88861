import { createHmac, randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import {
  buttons,
  details,
  escapeHtml,
  formatAmount,
  type ProviderStandIn,
  page,
  redirect,
  STAND_IN_CREDENTIALS,
  type StandInCore,
  type StandInRefund,
  type StandInWebhook,
  zeroDecimal,
} from './shared.ts'

/**
 * Stripe (Checkout Sessions), as core/payments/stripe.ts uses it: POST /v1/checkout/sessions
 * (form-encoded; Idempotency-Key replays, and refuses other parameters under the same key), GET
 * /v1/checkout/sessions/:id, POST …/:id/expire, refunds (POST /v1/refunds, GET /v1/refunds/:id);
 * webhooks signed `Stripe-Signature: t=…,v1=…` with the whsec secret, as Stripe does.
 *
 * Its pay page: approving redirects to the success URL with the session id and sends
 * checkout.session.completed at once; declining expires the session (checkout.session.expired)
 * and sends the customer to the cancel URL.
 */

/** The API paths that are Stripe's (the rest are PayPal's). */
export const isStripePath = (path: string) =>
  path.startsWith('/v1/checkout/') || path.startsWith('/v1/refunds')

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

export type StripeStandIn = ProviderStandIn & {
  /** The session as GET /v1/checkout/sessions/:id shows it. */
  session(id: string): Record<string, unknown> | undefined
}

export function createStripeStandIn(core: StandInCore): StripeStandIn {
  const { url, controls, record, deliver } = core
  const sessions = new Map<string, Session>()
  const replies = new Map<string, { request: string; status: number; body: unknown }>()

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
      const stored = idempotencyKey ? replies.get(idempotencyKey) : undefined
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
        replies.set(idempotencyKey, { request: body, status, body: reply })
      return [status, reply]
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const idempotencyKey = headers['idempotency-key']
      const stored = idempotencyKey ? replies.get(`refund\n${idempotencyKey}`) : undefined
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
        replies.set(`refund\n${idempotencyKey}`, { request: body, status, body: reply })
      return [status, reply]
    }
    const refundRead = /^\/v1\/refunds\/([^/]+)$/.exec(path)
    if (method === 'GET' && refundRead) {
      const refund = controls.refunds.find(
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
    const refunded = controls.refunds
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
      status: controls.refundStatus,
    }
    controls.refunds.push(refund)
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
    return record('stripe', id, type, sign(body, forged), body, forged)
  }

  function sign(body: string, forged = false): Record<string, string> {
    const t = Math.floor(Date.now() / 1000)
    const secret = forged ? 'whsec_not_the_endpoint_secret' : STAND_IN_CREDENTIALS.stripe.webhookSecret
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
    return { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `t=${t},v1=${v1}` }
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

  function found(ref: string): Session {
    const session = sessions.get(ref)
    if (!session) throw new Error(`No Stripe session ${ref}`)
    return session
  }

  return {
    unavailable: { error: { type: 'api_error', message: 'The stand-in is down.' } },
    api: stripeApi,
    has: (ref) => sessions.has(ref),
    showPayPage: (res, ref) => sessionPage(res, found(ref)),
    submitPayPage(res, ref, action) {
      const session = found(ref)
      if (action === 'cancel') return redirect(res, session.cancelUrl)
      if (action === 'decline') {
        if (session.status === 'open') expireSession(session)
        return redirect(res, session.cancelUrl)
      }
      if (session.status === 'expired') return page(res, 410, 'Expired', '<p>This checkout has expired.</p>')
      if (session.status === 'open') {
        const override = controls.overrideAmount
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
    },
    sign,
    forgedWebhook: () => stripeEvent('checkout.session.completed', forgedSession(), true),
    event: (type, object) => stripeEvent(type, object, false),
    forgetRequestIds: () => replies.clear(),
    session(id) {
      const session = sessions.get(id)
      return session && sessionJson(session)
    },
  }
}

function stripeProblem(code: string, param: string, message: string) {
  return { error: { type: 'invalid_request_error', code, param, message } }
}
