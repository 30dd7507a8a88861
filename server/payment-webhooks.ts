import express, { type RequestHandler, Router } from 'express'
import { translator } from '#app/i18n.server.ts'
import { apiError } from '#app/lib/http-errors.ts'
import type { OrderDeps } from '#core/orders/order-context.ts'
import { handleWebhook } from '#core/payments/payment-service.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Database } from '#db/client.ts'

/**
 * POST /api/payments/webhooks/:provider (paypal, stripe): the providers' event deliveries.
 * Mounted in the API router before its JSON parser: signatures cover the body byte for byte, so
 * it is read raw (any content type, at most 1 MB) and handed on as it came. No session, no
 * origin check: the signature is the authority (core/payments/payment-service.ts
 * `handleWebhook`). Answers: 200 processed, replayed or ignored; 400 forged or unverifiable
 * (nothing written); 404 a provider that is not configured; 502 the provider could not be
 * asked to verify, and 500/503 our own failure: the provider delivers again later.
 */
export function paymentWebhooks({ db, orders }: { db: Database; orders: OrderDeps }): Router {
  const router = Router()
  router.post('/payments/webhooks/:provider', express.raw({ type: () => true, limit: '1mb' }), (async (
    req,
    res,
    next,
  ) => {
    const language: Language = res.locals.preferences?.language ?? 'es'
    res.set('Cache-Control', 'no-store')
    try {
      const rawBody = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : ''
      const headers: Record<string, string | undefined> = {}
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value
      }
      const provider = String(req.params.provider)
      const { result, settled } = await handleWebhook({ db, ...orders }, provider, headers, rawBody)
      // Money that staff must look at: held (another amount, currency or invoice) or paid twice.
      if (settled?.result === 'held' || settled?.result === 'duplicate') {
        req.log?.warn(
          { provider, paymentId: settled.paymentId, result: settled.result },
          `payment ${settled.result === 'held' ? 'held for staff review' : 'paid twice: refund due'}`,
        )
      }
      res.status(200).json({ received: true, result })
    } catch (caught) {
      const error = databaseUnavailableError(caught, { write: true }) ?? caught
      if (!isAppError(error)) return next(error)
      // One warning with the reason (a forgery, a stale replay, a tampered body…): no stack.
      if (error.code === 'invalid') {
        req.log?.warn({ provider: req.params.provider, why: error.message }, 'payment webhook refused')
      } else if (error.code !== 'not_found') {
        req.log?.warn({ err: error }, 'payment webhook not processed')
      }
      const { status, headers, body } = apiError(error, translator(language))
      res.status(status).set(headers).json(body)
    }
  }) satisfies RequestHandler)
  return router
}
