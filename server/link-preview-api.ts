import { fromNodeHeaders } from 'better-auth/node'
import express from 'express'
import { translator } from '#app/i18n.server.ts'
import { apiError } from '#app/lib/http-errors.ts'
import type { Auth } from '#core/accounts/better-auth/auth.ts'
import { expandV6 } from '#core/link-preview/ip-ranges.ts'
import { previewImagePath } from '#core/link-preview/preview-path.ts'
import type { PreviewService, ShownPreview } from '#core/link-preview/preview-service.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { AppError, isAppError, rateLimited } from '#core/shared/errors.ts'

/**
 * `GET /api/v1/link-preview?url=…`: the item behind a pasted link (issue 31,
 * core/link-preview/preview-service.ts), for the request form and the calculator. Anyone may ask
 * (the calculator is public), limited per address and, signed in, per account. Only this site's
 * own pages may ask: a browser's `Sec-Fetch-Site` from another site is refused. The answer is
 * `{ status: 'read', preview }` or `{ status: 'unread' }` (the form stays as it is); a translated
 * 429 with Retry-After when limited, a translated 400 for something that is not a link.
 *
 * `GET /api/v1/link-preview/image?url=…`: the item's photo, read by the server and served from
 * this site (so the visitor's browser never calls the shop, and the CSP stays `img-src 'self'`):
 * only a photo a page read named, made safe and small by the preview service.
 */
export function linkPreviewApi({ auth, previews }: { auth: Auth; previews: PreviewService }) {
  const router = express.Router()
  router.get('/v1/link-preview', async (req, res, next) => {
    const language: Language = res.locals.preferences?.language ?? 'es'
    try {
      refuseOtherSites(req)
      const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
      const answer = await previews.preview(req.query.url, {
        accountId: session?.user.id ?? null,
        clientKey: clientKeyOf(req),
      })
      res.set('Cache-Control', 'private, no-store')
      if (answer.status === 'limited')
        throw rateLimited('Link preview rate limit reached', answer.retryAfterSeconds, 'previewTooMany')
      res.json(answer.status === 'read' ? { status: 'read', preview: forBrowser(answer.preview) } : answer)
    } catch (error) {
      if (!isAppError(error)) return next(error)
      const { status, headers, body } = apiError(error, translator(language))
      res.status(status).set(headers).json(body)
    }
  })
  router.get('/v1/link-preview/image', async (req, res, next) => {
    try {
      refuseOtherSites(req)
      const image = await previews.image(req.query.url, { clientKey: clientKeyOf(req) })
      if (!image) {
        res.status(404).set('Cache-Control', 'private, no-store').end()
        return
      }
      res
        .status(200)
        .set({ 'Content-Type': 'image/webp', 'Cache-Control': 'private, max-age=3600' })
        .end(image)
    } catch (error) {
      if (!isAppError(error)) return next(error)
      res.status(apiError(error, translator('en')).status).end()
    }
  })
  return router
}

/** The preview with its photo served from this site. */
export function forBrowser(preview: ShownPreview): ShownPreview {
  return { ...preview, imageUrl: previewImagePath(preview.imageUrl) }
}

/**
 * Whom the per-address limits count: an IPv4 address, or an IPv6 address's /64 (one subscriber
 * holds a whole /64 and could turn its 2^64 addresses into as many limits).
 */
export function clientKeyOf(req: Pick<express.Request, 'ip' | 'socket'>): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown'
  if (!ip.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return `ip:${ip.replace(/^::ffff:/i, '')}`
  const groups = expandV6(ip.split('%')[0] ?? '')
  return groups
    ? `ip6:${groups
        .slice(0, 4)
        .map((group) => group.toString(16))
        .join(':')}::/64`
    : `ip:${ip}`
}

function refuseOtherSites(req: express.Request) {
  const site = req.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none')
    throw new AppError('forbidden', 'Link previews are for this site’s own pages')
}
