import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
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
  withQuery,
  zeroDecimal,
} from './shared.ts'

/**
 * PayPal (Orders v2), as core/payments/paypal.ts uses it: POST /v1/oauth2/token (client
 * credentials, tokens expire), POST /v2/checkout/orders (PayPal-Request-Id: the same id answers
 * the same order; JPY with decimals refused), GET /v2/checkout/orders/:id, POST …/:id/capture
 * (PayPal-Request-Id replays the first answer; ORDER_NOT_APPROVED before approval,
 * ORDER_ALREADY_CAPTURED on a capture under another id, DUPLICATE_INVOICE_ID when the invoice
 * number was already paid), refunds (POST /v2/payments/captures/:id/refund, GET
 * /v2/payments/refunds/:id), POST /v1/notifications/verify-webhook-signature (SUCCESS only for
 * the stand-in's own signatures, an HMAC over transmission id, time, webhook id and body).
 *
 * Its pay page: approving redirects to the return URL (`?token=<order id>&PayerID=…`) and sends
 * CHECKOUT.ORDER.APPROVED, then PAYMENT.CAPTURE.COMPLETED or DENIED at capture; declining makes
 * the capture denied (or refused INSTRUMENT_DECLINED, see `paypalDecline`).
 */

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

export type PayPalStandIn = ProviderStandIn & {
  /** The order as GET /v2/checkout/orders/:id shows it. */
  order(id: string): Record<string, unknown> | undefined
  /** How many captures were made on an order. */
  captureCount(orderId: string): number
  /** Every access token stops working. */
  expireTokens(): void
}

export function createPayPalStandIn(
  core: StandInCore,
  { tokenTtlSeconds }: { tokenTtlSeconds: number },
): PayPalStandIn {
  const { url, controls, record, deliver } = core
  const signingKey = randomBytes(32)
  const tokens = new Map<string, number>()
  const orders = new Map<string, Order>()
  const replies = new Map<string, { status: number; body: unknown }>()

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
      const refund = controls.refunds.find(
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
    const refunded = controls.refunds
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
      status: controls.refundStatus,
    }
    controls.refunds.push(refund)
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
    const stored = requestId ? replies.get(key) : undefined
    if (stored) return [stored.status, stored.body]
    const [status, body] = run()
    if (requestId && status < 500) replies.set(key, { status, body })
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
    if (order.declined && controls.paypalDecline === 'instrument-declined') {
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
    const override = controls.overrideAmount
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
    return createHmac('sha256', signingKey).update(`${id}|${time}|${webhookId}|${digest}`).digest('base64')
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
    return record('paypal', id, type, sign(body, forged), body, forged)
  }

  function sign(body: string, forged = false): Record<string, string> {
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

  function found(ref: string): Order {
    const order = orders.get(ref)
    if (!order) throw new Error(`No PayPal order ${ref}`)
    return order
  }

  return {
    unavailable: { name: 'SERVICE_UNAVAILABLE', message: 'The stand-in is down.', debug_id: 'standin' },
    api: paypalApi,
    has: (ref) => orders.has(ref),
    showPayPage: (res, ref) => orderPage(res, found(ref)),
    submitPayPage(res, ref, action) {
      const order = found(ref)
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
    },
    sign,
    forgedWebhook: () => paypalEvent('PAYMENT.CAPTURE.COMPLETED', 'capture', forgedCapture(), true),
    event: (type, object) => paypalEvent(type, type.split('.')[1]?.toLowerCase() ?? 'unknown', object, false),
    forgetRequestIds: () => replies.clear(),
    order(id) {
      const order = orders.get(id)
      return order && orderJson(order)
    },
    captureCount: (orderId) => orders.get(orderId)?.captures ?? 0,
    expireTokens: () => tokens.clear(),
  }
}

function paypalProblem(name: string, issue: string, status: number) {
  return {
    name,
    message: status === 422 ? 'The requested action could not be performed.' : 'Request is not well-formed.',
    debug_id: randomBytes(6).toString('hex'),
    details: [{ issue, description: issue.toLowerCase().replaceAll('_', ' ') }],
  }
}

/** 17 upper-case letters and digits, like PayPal's order and capture ids. */
function paypalId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
  return [...randomBytes(17)].map((byte) => alphabet[byte % alphabet.length]).join('')
}
