import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { dlocalAuthorization } from '#core/payments/dlocal.ts'
import { LOCAL_PAYMENT_COUNTRIES, type LocalCountry } from '#core/payments/local-methods.ts'
import { escapeHtml } from '#tests/support/payment-stand-in/shared.ts'

/**
 * A local stand-in for dLocal's Payins API v2.1 (docs/decisions/051), for tests and development:
 * a real HTTP server that checks every call as dLocal does (X-Login, X-Trans-Key, X-Version 2.1,
 * X-Date and `Authorization: V2-HMAC-SHA256, Signature: …` over login + date + body) and answers:
 *
 * - GET /currency-exchanges?from=JPY&to=XXX: its quote (`rates`, changeable by tests);
 * - POST /payments: a payment in the country's currency with one of its methods. DIRECT methods
 *   (OXXO OX, SPEI SE, PagoEfectivo EF, PIX) answer PENDING with a `ticket` (number, barcode or
 *   QR code, expiration_date, image_url: the voucher page here); REDIRECT ones (Webpay WP, PSE PC,
 *   CARD) with a `redirect_url` to a page here. The same order_id gets the same payment back;
 * - GET /payments/:id; POST /refunds (refused above what was paid and not yet refunded), GET
 *   /refunds/:id.
 *
 * The voucher and redirect pages (English, test tooling) have "Pay" and "Let it expire" (or
 * "Reject") buttons. Tests do the same with `pay(id)` / `expire(id)`: the payment changes and a
 * signed notification (the payment object, as dLocal sends it) goes to `webhookUrl`. Controls:
 * `replayLast()`, `sendForged()`, `send(id, status)` (a notification of any status, out of
 * order), `overrideAmount` (what a payment reports when paid), `down`, and the lists `calls`,
 * `notifications`.
 *
 * Standalone: `node tests/support/dlocal-stand-in/server.ts --port 4011 --webhook-url
 * http://localhost:3000/api/payments/webhooks/dlocal` prints the environment for the app.
 */

export const DLOCAL_STAND_IN_CREDENTIALS = {
  login: 'standin-dlocal-login',
  transKey: 'standin-dlocal-trans-key',
  secretKey: 'standin-dlocal-secret-key',
} as const

export type StandInPayment = {
  id: string
  amount: number
  currency: string
  country: LocalCountry
  payment_method_id: string
  payment_method_type: string
  payment_method_flow: 'DIRECT' | 'REDIRECT'
  order_id: string
  description: string
  status: 'PENDING' | 'PAID' | 'REJECTED' | 'CANCELLED' | 'EXPIRED'
  status_detail: string
  created_date: string
  notification_url: string | null
  callback_url: string | null
  redirect_url?: string
  ticket?: {
    number: string
    barcode?: string
    qr_code?: string
    expiration_date: string
    image_url: string
  }
  refunded: number
}

export type StandInNotification = {
  paymentId: string
  status: string
  url: string | null
  headers: Record<string, string>
  body: string
  forged: boolean
  answer: number | null
}

export type DLocalStandIn = {
  url: string
  env: Record<string, string>
  webhookUrl: string | null
  /** Local units per yen, per currency. */
  rates: Record<string, string>
  /** When set, a payment paid reports this amount (major units) instead of its own. */
  overrideAmount: number | null
  /** 'error': every API call answers 503. */
  down: boolean
  calls: { method: string; path: string; refused: string | null }[]
  notifications: StandInNotification[]
  payment(id: string): StandInPayment | undefined
  /** The payment created for this order id (our payment id). */
  paymentForOrder(orderId: string): StandInPayment | undefined
  pay(id: string): Promise<StandInNotification>
  expire(id: string): Promise<StandInNotification>
  /** A notification of the payment as it is now, or with another status (out of order). */
  send(id: string, status?: StandInPayment['status']): Promise<StandInNotification>
  replayLast(): Promise<StandInNotification>
  sendForged(id: string): Promise<StandInNotification>
  stop(): Promise<void>
}

const DEFAULT_RATES: Record<string, string> = {
  MXN: '0.1175',
  CLP: '6.25',
  COP: '26.8',
  PEN: '0.0251',
  BRL: '0.0372',
}

const METHOD_TYPES: Record<string, string> = {
  OX: 'TICKET',
  EF: 'TICKET',
  SE: 'BANK_TRANSFER',
  PIX: 'BANK_TRANSFER',
  WP: 'BANK_TRANSFER',
  PC: 'BANK_TRANSFER',
  CARD: 'CARD',
}

export async function startDLocalStandIn(
  options: { port?: number; host?: string; webhookUrl?: string | null; log?: (line: string) => void } = {},
): Promise<DLocalStandIn> {
  const host = options.host ?? '127.0.0.1'
  const log = options.log ?? (() => {})
  const payments = new Map<string, StandInPayment>()
  const refunds = new Map<
    string,
    { id: string; payment_id: string; amount: number; currency: string; status: string }
  >()
  const { login, transKey, secretKey } = DLOCAL_STAND_IN_CREDENTIALS

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`dlocal stand-in error: ${error.stack ?? error.message}`)
      if (!res.headersSent) json(res, 500, { code: 5000, message: 'stand-in error' })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`

  const standIn: DLocalStandIn = {
    url,
    env: {
      DLOCAL_API_URL: url,
      DLOCAL_LOGIN: login,
      DLOCAL_TRANS_KEY: transKey,
      DLOCAL_SECRET_KEY: secretKey,
    },
    webhookUrl: options.webhookUrl ?? null,
    rates: { ...DEFAULT_RATES },
    overrideAmount: null,
    down: false,
    calls: [],
    notifications: [],
    payment: (id) => payments.get(id),
    paymentForOrder: (orderId) => [...payments.values()].find((payment) => payment.order_id === orderId),
    async pay(id) {
      const payment = mustFind(id)
      payment.status = 'PAID'
      payment.status_detail = 'The payment was paid.'
      if (standIn.overrideAmount !== null) payment.amount = standIn.overrideAmount
      return notify(payment)
    },
    async expire(id) {
      const payment = mustFind(id)
      payment.status = 'EXPIRED'
      payment.status_detail = 'The payment has expired.'
      return notify(payment)
    },
    async send(id, status) {
      const payment = mustFind(id)
      return notify(status ? { ...payment, status } : payment)
    },
    async replayLast() {
      const last = standIn.notifications.at(-1)
      if (!last) throw new Error('No notification sent yet')
      const again = { ...last, answer: null }
      standIn.notifications.push(again)
      await deliver(again)
      return again
    },
    async sendForged(id) {
      const payment = { ...mustFind(id), status: 'PAID' as const }
      const body = JSON.stringify(payment)
      const date = new Date().toISOString()
      const notification: StandInNotification = {
        paymentId: id,
        status: 'PAID',
        url: null,
        headers: {
          'content-type': 'application/json',
          'x-date': date,
          'x-login': login,
          authorization: dlocalAuthorization('not-the-secret', login, date, body),
        },
        body,
        forged: true,
        answer: null,
      }
      standIn.notifications.push(notification)
      await deliver(notification)
      return notification
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }

  function mustFind(id: string): StandInPayment {
    const payment = payments.get(id)
    if (!payment) throw new Error(`No dLocal payment ${id}`)
    return payment
  }

  async function notify(payment: StandInPayment): Promise<StandInNotification> {
    const { refunded: _refunded, ...object } = payment
    const body = JSON.stringify(object)
    const date = new Date().toISOString()
    const notification: StandInNotification = {
      paymentId: payment.id,
      status: payment.status,
      url: null,
      headers: {
        'content-type': 'application/json',
        'x-date': date,
        'x-login': login,
        authorization: dlocalAuthorization(secretKey, login, date, body),
      },
      body,
      forged: false,
      answer: null,
    }
    standIn.notifications.push(notification)
    await deliver(notification)
    return notification
  }

  async function deliver(notification: StandInNotification) {
    const target = standIn.webhookUrl
      ? standIn.webhookUrl.endsWith('/')
        ? `${standIn.webhookUrl}dlocal`
        : standIn.webhookUrl
      : null
    notification.url = target
    if (!target) return
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: notification.headers,
        body: notification.body,
      })
      notification.answer = response.status
      await response.text()
    } catch (error) {
      log(`notification to ${target} failed: ${(error as Error).message}`)
    }
    log(`notification ${notification.paymentId} ${notification.status} → ${notification.answer}`)
  }

  /** dLocal's checks on every API call; a reason when refused. */
  function refusal(req: IncomingMessage, body: string): string | null {
    const date = String(req.headers['x-date'] ?? '')
    if (req.headers['x-login'] !== login || req.headers['x-trans-key'] !== transKey) return 'credentials'
    if (req.headers['x-version'] !== '2.1') return 'version'
    if (!date || Number.isNaN(Date.parse(date)) || Math.abs(Date.now() - Date.parse(date)) > 300_000)
      return 'date'
    if (req.headers.authorization !== dlocalAuthorization(secretKey, login, date, body)) return 'signature'
    return null
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let body = ''
    for await (const chunk of req) body += chunk
    const target = new URL(req.url ?? '/', url)
    const path = target.pathname

    // Pages for people (no signature): the voucher and the redirect page, and their buttons.
    const pageMatch = /^\/(vouchers|checkout)\/([\w-]+)(\/(pay|expire|reject))?$/.exec(path)
    if (pageMatch) return pageRoute(req, res, pageMatch[1] ?? '', pageMatch[2] ?? '', pageMatch[4] ?? null)

    const refused = refusal(req, body)
    standIn.calls.push({ method: req.method ?? '', path, refused })
    log(`${req.method} ${path}${refused ? ` refused: ${refused}` : ''}`)
    if (refused) return json(res, 403, { code: 3001, message: 'Invalid credentials' })
    if (standIn.down) return json(res, 503, { code: 5000, message: 'Unavailable' })

    if (req.method === 'GET' && path === '/currency-exchanges') {
      const to = target.searchParams.get('to') ?? ''
      const rate = standIn.rates[to]
      if (target.searchParams.get('from') !== 'JPY' || !rate)
        return json(res, 400, { code: 5009, message: 'Currency not supported' })
      return json(res, 200, { from: 'JPY', to, rate: Number(rate) })
    }
    if (req.method === 'POST' && path === '/payments') return createPayment(res, body)
    const paymentMatch = /^\/payments\/([\w-]+)$/.exec(path)
    if (req.method === 'GET' && paymentMatch) {
      const payment = payments.get(paymentMatch[1] ?? '')
      if (!payment) return json(res, 404, { code: 4000, message: 'Payment not found' })
      const { refunded: _refunded, ...object } = payment
      return json(res, 200, object)
    }
    if (req.method === 'POST' && path === '/refunds') return createRefund(res, body)
    const refundMatch = /^\/refunds\/([\w-]+)$/.exec(path)
    if (req.method === 'GET' && refundMatch) {
      const refund = refunds.get(refundMatch[1] ?? '')
      return refund ? json(res, 200, refund) : json(res, 404, { code: 4000, message: 'Refund not found' })
    }
    return json(res, 404, { code: 4000, message: 'Not found' })
  }

  function createPayment(res: ServerResponse, raw: string) {
    let input: Record<string, unknown>
    try {
      input = JSON.parse(raw) as Record<string, unknown>
    } catch {
      return json(res, 400, { code: 5001, message: 'Invalid request' })
    }
    const country = String(input.country ?? '') as LocalCountry
    const spec = LOCAL_PAYMENT_COUNTRIES[country]
    if (!spec) return json(res, 400, { code: 5002, param: 'country', message: 'Invalid country' })
    if (input.currency !== spec.currency) return json(res, 400, { code: 5003, param: 'currency' })
    const amount = input.amount
    const decimals = spec.decimals
    if (
      typeof amount !== 'number' ||
      amount <= 0 ||
      Math.round(amount * 10 ** decimals) !== Number((amount * 10 ** decimals).toFixed(6))
    ) {
      return json(res, 400, { code: 5004, param: 'amount' })
    }
    const method = spec.methods.find((candidate) => candidate.code === input.payment_method_id)
    if (!method || method.flow !== input.payment_method_flow) {
      return json(res, 400, { code: 5005, param: 'payment_method_id' })
    }
    const payer = input.payer as { name?: unknown; email?: unknown } | undefined
    if (
      typeof payer?.name !== 'string' ||
      !payer.name ||
      typeof payer.email !== 'string' ||
      !payer.email.includes('@')
    ) {
      return json(res, 400, { code: 5006, param: 'payer' })
    }
    const orderId = String(input.order_id ?? '')
    if (!orderId) return json(res, 400, { code: 5007, param: 'order_id' })
    const existing = standIn.paymentForOrder(orderId)
    if (existing) {
      const { refunded: _refunded, ...object } = existing
      return json(res, 200, object)
    }
    const id = `D-${randomUUID()}`
    const now = Date.now()
    const payment: StandInPayment = {
      id,
      amount,
      currency: spec.currency,
      country,
      payment_method_id: method.code,
      payment_method_type: METHOD_TYPES[method.code] ?? 'TICKET',
      payment_method_flow: method.flow,
      order_id: orderId,
      description: String(input.description ?? ''),
      status: 'PENDING',
      status_detail: 'The payment is pending.',
      created_date: new Date(now).toISOString(),
      notification_url: typeof input.notification_url === 'string' ? input.notification_url : null,
      callback_url: typeof input.callback_url === 'string' ? input.callback_url : null,
      refunded: 0,
    }
    if (method.flow === 'DIRECT') {
      const hours = method.code === 'PIX' ? 24 : 72
      payment.ticket = {
        number:
          method.code === 'SE'
            ? `6461801570${String(now).slice(-8)}`
            : String(now).slice(-14).padStart(14, '9'),
        expiration_date: new Date(now + hours * 3_600_000).toISOString(),
        image_url: `${url}/vouchers/${id}`,
        ...(method.code === 'PIX'
          ? { qr_code: `00020126580014br.gov.bcb.pix0136${id.slice(2, 38)}5204000053039865802BR` }
          : { barcode: `${String(now)}${String(Math.round(amount * 100)).padStart(10, '0')}` }),
      }
    } else {
      payment.redirect_url = `${url}/checkout/${id}`
    }
    payments.set(id, payment)
    const { refunded: _refunded, ...object } = payment
    return json(res, 200, object)
  }

  function createRefund(res: ServerResponse, raw: string) {
    let input: Record<string, unknown>
    try {
      input = JSON.parse(raw) as Record<string, unknown>
    } catch {
      return json(res, 400, { code: 5001 })
    }
    const payment = payments.get(String(input.payment_id ?? ''))
    if (!payment) return json(res, 404, { code: 4000, message: 'Payment not found' })
    if (payment.status !== 'PAID') return json(res, 400, { code: 5008, message: 'Payment not paid' })
    const id = typeof input.id === 'string' ? input.id : null
    const existing = id ? refunds.get(`R-${id}`) : undefined
    if (existing) return json(res, 200, existing)
    const amount = typeof input.amount === 'number' ? input.amount : payment.amount - payment.refunded
    if (input.currency !== undefined && input.currency !== payment.currency)
      return json(res, 400, { code: 5003, param: 'currency' })
    if (amount <= 0 || Number((payment.refunded + amount).toFixed(6)) > payment.amount) {
      return json(res, 400, { code: 5010, message: 'Amount exceeds what can be refunded' })
    }
    payment.refunded = Number((payment.refunded + amount).toFixed(6))
    const refund = {
      id: id ? `R-${id}` : `R-${randomUUID()}`,
      payment_id: payment.id,
      amount,
      currency: payment.currency,
      status: 'SUCCESS',
    }
    refunds.set(refund.id, refund)
    return json(res, 200, refund)
  }

  async function pageRoute(
    req: IncomingMessage,
    res: ServerResponse,
    kind: string,
    id: string,
    action: string | null,
  ) {
    const payment = payments.get(id)
    if (!payment) return html(res, 404, '<h1>No such payment</h1>')
    if (req.method === 'POST' && action) {
      if (payment.status === 'PENDING') {
        if (action === 'pay') await standIn.pay(id)
        else if (action === 'expire') await standIn.expire(id)
        else {
          payment.status = 'REJECTED'
          await notify(payment)
        }
      }
      const back =
        kind === 'checkout' && payment.callback_url ? payment.callback_url : `${url}/vouchers/${id}`
      res.writeHead(303, { location: back }).end()
      return
    }
    const ticket = payment.ticket
    const rows = ticket
      ? `<dl><dt>Reference</dt><dd data-reference>${escapeHtml(ticket.number)}</dd><dt>Amount</dt><dd>${payment.amount} ${payment.currency}</dd><dt>Pay by</dt><dd>${escapeHtml(ticket.expiration_date)}</dd></dl>`
      : `<p>${payment.amount} ${payment.currency}</p>`
    const buttons =
      payment.status === 'PENDING'
        ? kind === 'vouchers'
          ? `<form method="post" action="/vouchers/${id}/pay"><button type="submit">Pay</button></form><form method="post" action="/vouchers/${id}/expire"><button type="submit">Let it expire</button></form>`
          : `<form method="post" action="/checkout/${id}/pay"><button type="submit">Pay</button></form><form method="post" action="/checkout/${id}/reject"><button type="submit">Reject</button></form>`
        : `<p>Status: ${payment.status}</p>`
    return html(
      res,
      200,
      `<h1>dLocal ${escapeHtml(payment.payment_method_id)} (local stand-in)</h1>${rows}${buttons}`,
    )
  }

  return standIn
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function html(res: ServerResponse, status: number, content: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>dLocal (local stand-in)</title></head><body><main>${content}</main></body></html>`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4011' },
      host: { type: 'string' },
      'webhook-url': { type: 'string' },
    },
  })
  const standIn = await startDLocalStandIn({
    port: Number(values.port),
    ...(values.host ? { host: values.host } : {}),
    webhookUrl: values['webhook-url'] ?? null,
    log: (line) => console.log(line),
  })
  console.log(`dLocal stand-in on ${standIn.url}`)
  for (const [name, value] of Object.entries(standIn.env)) console.log(`${name}=${value}`)
}
