import { createHash, timingSafeEqual } from 'node:crypto'
import express, { type RequestHandler, Router } from 'express'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { verifyWebhookSignature, type WhatsAppClient } from '#core/whatsapp/client.ts'
import { recordInbound, recordStatus } from '#core/whatsapp/dispatch.ts'
import { parseWebhookBody } from '#core/whatsapp/webhook.ts'
import type { Database } from '#db/client.ts'

/**
 * /api/whatsapp/webhook: Meta's WhatsApp Cloud API webhook (docs/decisions/049). Not mounted when
 * WhatsApp is not configured (404, as any unknown address).
 *
 * - GET: the subscription check. `hub.mode=subscribe` with our verify token answers
 *   `hub.challenge` as it came; anything else 403.
 * - POST: receipts and inbound messages. Read raw (signatures cover the bytes), at most 1 MB;
 *   `X-Hub-Signature-256` must be the HMAC-SHA256 of the body with the app secret (401 if not,
 *   nothing written). Each event is handled once (replays are harmless); a body we cannot read is
 *   answered 200 and ignored so Meta does not redeliver it for ever. A database failure is a 503:
 *   Meta delivers again later.
 */
export function whatsappWebhook({
  db,
  jobs,
  client,
}: {
  db: Database
  jobs: AppJobEnqueuer
  client: WhatsAppClient
}): Router {
  const router = Router()
  router.get('/whatsapp/webhook', (req, res) => {
    res.set('Cache-Control', 'no-store')
    const mode = req.query['hub.mode']
    const token = req.query['hub.verify_token']
    const challenge = req.query['hub.challenge']
    if (
      mode === 'subscribe' &&
      typeof token === 'string' &&
      sameSecret(token, client.config.verifyToken) &&
      typeof challenge === 'string' &&
      /^[\w-]{1,200}$/.test(challenge)
    ) {
      res.type('text/plain').send(challenge)
      return
    }
    res.status(403).type('text/plain').send('Forbidden')
  })
  router.post('/whatsapp/webhook', express.raw({ type: () => true, limit: '1mb' }), (async (
    req,
    res,
    next,
  ) => {
    res.set('Cache-Control', 'no-store')
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
    const signature = req.headers['x-hub-signature-256']
    if (
      !verifyWebhookSignature(
        client.config.appSecret,
        raw,
        Array.isArray(signature) ? signature[0] : signature,
      )
    ) {
      req.log?.warn('whatsapp webhook refused: bad signature')
      res.status(401).json({ received: false })
      return
    }
    const events = parseWebhookBody(raw.toString('utf8'))
    try {
      let stopped = 0
      for (const status of events?.statuses ?? []) await recordStatus({ db, jobs }, status)
      for (const inbound of events?.inbound ?? []) {
        if ((await recordInbound({ db }, inbound)) === 'stopped') stopped++
      }
      if (stopped > 0) req.log?.info({ stopped }, 'whatsapp updates stopped by the customer')
      res.status(200).json({ received: true })
    } catch (caught) {
      if (databaseUnavailableError(caught, { write: true })) {
        res.status(503).set('Retry-After', '30').json({ received: false })
        return
      }
      next(caught)
    }
  }) satisfies RequestHandler)
  return router
}

/** Compares two secrets in constant time (their digests: lengths may differ). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(expected)) && expected.length > 0
}
