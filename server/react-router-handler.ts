import { createReadableStreamFromReadable, writeReadableStreamToWritable } from '@react-router/node'
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from 'express'
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from 'react-router'
import { answeringRouteErrors } from '#app/lib/http-errors.ts'
import { type CacheHit, type PageCache, pageCacheKey } from './page-cache.ts'
import { parseCookies } from './preferences.ts'

// Any cookie that names a session makes the visitor non-anonymous: their page is never cached;
// nor is a page that shows a one-shot flash message.
export const SESSION_COOKIE = /session|^flash$/i

type Options = {
  build: () => Promise<ServerBuild>
  mode: string
  pageCache: PageCache | null
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider
}

/**
 * Serves React Router through Express, with the page cache in front: a cache hit never reaches
 * the renderer. Adapted from @react-router/express, which has no hook for caching.
 */
export function reactRouterHandler({ build, mode, pageCache, getLoadContext }: Options): RequestHandler {
  const handle = requestHandlerPerBuild(build, mode)
  return async (req, res, next) => {
    try {
      const url = requestUrl(req)
      const personal = hasPersonalCookie(req)
      const nonce: string = res.locals.nonce
      const { language, currency } = res.locals.preferences
      const cacheKey =
        pageCache && !personal && isCacheableRequest(req, url)
          ? pageCacheKey(url, language, currency, res.locals.consent ?? 'unset')
          : null

      if (cacheKey) {
        const hit = pageCache?.get(cacheKey)
        if (hit) {
          sendCached(req, res, hit, nonce, 'HIT')
          return
        }
      }

      const response = await handle(toFetchRequest(req, res, url), getLoadContext(req, res))

      // The database is unreachable (503): an anonymous page rendered before the outage is
      // still better than the "temporarily unavailable" page.
      const stale = cacheKey && response.status === 503 ? pageCache?.getStale(cacheKey) : null
      if (stale) {
        await response.body?.cancel()
        sendCached(req, res, stale, nonce, 'STALE')
        return
      }

      if (cacheKey && isStorableResponse(response)) {
        const body = await response.text()
        const headers = [...response.headers.entries()]
        pageCache?.set(cacheKey, { status: response.status, headers, body }, nonce)
        res.status(response.status)
        copyHeaders(res, headers)
        res.vary('Cookie')
        res.setHeader('X-Page-Cache', 'MISS')
        res.send(body)
        return
      }
      await sendResponse(res, response, personal)
    } catch (error) {
      next(error)
    }
  }
}

type Handle = ReturnType<typeof createRequestHandler>
const handlers = new WeakMap<ServerBuild, Handle>()

/**
 * React Router's handler, made once per build. Given a function, `createRequestHandler` derives
 * its routes and static handler again on every request (route flattening and path compiling:
 * about a tenth of a signed-in page's CPU); given the build, once. A new build (development's
 * module reloads) gets a new handler.
 */
function requestHandlerPerBuild(build: () => Promise<ServerBuild>, mode: string): Handle {
  // In production the build never changes: imported once, not resolved again per request.
  let production: Promise<ServerBuild> | null = null
  const load = () => {
    if (mode !== 'production') return build()
    if (!production)
      production = build().catch((error: unknown) => {
        production = null
        throw error
      })
    return production
  }
  return async (request, context) => {
    const current = await load()
    let handle = handlers.get(current)
    if (!handle) {
      handle = createRequestHandler(withErrorAnswers(current), mode)
      handlers.set(current, handle)
    }
    return handle(request, context)
  }
}

/**
 * The build with every route's loader and action wrapped by the one error path
 * (app/lib/http-errors.ts `answeringRouteErrors`): an AppError or a database outage they let
 * through becomes the translated error page with its status (a 503 with Retry-After for an
 * outage) instead of reaching React Router as a bug (500, and in production no way to tell it
 * apart). Routes only throw.
 */
function withErrorAnswers(original: ServerBuild): ServerBuild {
  const routes: ServerBuild['routes'] = {}
  for (const [id, route] of Object.entries(original.routes)) {
    if (!route) continue
    const module = { ...route.module }
    if (module.loader) module.loader = answeringRouteErrors(module.loader, false)
    if (module.action) module.action = answeringRouteErrors(module.action, true)
    routes[id] = { ...route, module }
  }
  return { ...original, routes }
}

function sendCached(
  req: ExpressRequest,
  res: ExpressResponse,
  hit: CacheHit,
  nonce: string,
  state: 'HIT' | 'STALE',
) {
  res.status(hit.status)
  copyHeaders(res, hit.headers)
  res.setHeader('X-Page-Cache', state)
  res.vary('Cookie')
  res.vary('Accept-Encoding')
  // Already compressed once at storage: the compression middleware leaves it alone.
  if (req.acceptsEncodings('gzip') === 'gzip') {
    const body = hit.gzip(nonce)
    res.setHeader('Content-Encoding', 'gzip')
    res.setHeader('Content-Length', body.length)
    res.end(body)
  } else {
    res.send(hit.plain(nonce))
  }
}

function isCacheableRequest(req: ExpressRequest, url: URL): boolean {
  return req.method === 'GET' && !url.pathname.endsWith('.data')
}

/** A session (or a one-shot message) makes whatever we answer this visitor's alone. */
function hasPersonalCookie(req: ExpressRequest): boolean {
  for (const name of parseCookies(req.headers.cookie).keys()) if (SESSION_COOKIE.test(name)) return true
  return false
}

function isStorableResponse(response: Response): boolean {
  const cacheControl = response.headers.get('Cache-Control') ?? ''
  return (
    response.status === 200 &&
    (response.headers.get('Content-Type') ?? '').startsWith('text/html') &&
    !response.headers.has('Set-Cookie') &&
    !/private|no-store/.test(cacheControl)
  )
}

function requestUrl(req: ExpressRequest): URL {
  const host = (req.get('host') ?? '').split(/[\\/?#@]/)[0] || 'localhost'
  try {
    return new URL(`${req.protocol}://${host}${req.originalUrl}`)
  } catch {
    return new URL(req.originalUrl, 'http://localhost')
  }
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse, url: URL): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  let controller: AbortController | null = new AbortController()
  res.on('finish', () => {
    controller = null
  })
  res.on('close', () => controller?.abort())
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req)
    init.duplex = 'half'
  }
  return new Request(url.href, init)
}

/**
 * Every answer depends on cookies (language, currency, consent, session): `Vary: Cookie`. One for
 * a visitor with a session (a public page rendered signed in, a `.data` request, a download) is
 * theirs alone: `private, no-store`, so no browser or shared cache keeps it, unless the route
 * itself said `private, …` (a customer's photo, which the browser may keep: docs/decisions/020).
 */
async function sendResponse(res: ExpressResponse, response: Response, personal: boolean) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel()
    return
  }
  res.statusMessage = response.statusText
  res.status(response.status)
  copyHeaders(res, response.headers.entries())
  res.vary('Cookie')
  if (personal && !/^private\b/i.test(response.headers.get('Cache-Control') ?? '')) {
    res.setHeader('Cache-Control', 'private, no-store')
  }
  if (!response.body) {
    res.end()
    return
  }
  // A document is complete before its answer starts (entry.server.tsx renders to `onAllReady`):
  // written in one piece, it is compressed in one pass. Streamed, React's 2 KB chunks each went
  // through the compression middleware's flush (a sync flush of zlib and a socket write apiece).
  // Data requests (`.data`, with deferred values) and files still stream.
  if ((response.headers.get('Content-Type') ?? '').startsWith('text/html')) {
    const body = Buffer.from(await response.arrayBuffer())
    if (!res.destroyed) res.end(body)
    return
  }
  try {
    await writeReadableStreamToWritable(response.body, res)
  } catch (error) {
    if (res.destroyed || res.writableEnded) return
    throw error
  }
}

/**
 * A response's headers onto Express's: cookies add up, any other header replaces the server's
 * default (a page's own Referrer-Policy or Cache-Control wins over the one set for all).
 */
function copyHeaders(res: ExpressResponse, headers: Iterable<[string, string]>) {
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'set-cookie') res.append(name, value)
    else res.setHeader(name, value)
  }
}
