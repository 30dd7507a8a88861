import type { RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { errorHeaders, toPublicError } from '#app/lib/http-errors.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { guardRefusal } from './auth.server.ts'

/**
 * A signed-in branch's address that answers a file rather than a page (a photo, "download my
 * data", the analytics CSV). Its route module is a page route all the same (a `default` that
 * renders nothing, no loader of its own), with this as its `middleware`, so that a person who
 * opens the address in the browser without the right to it gets the guard page ("Login
 * Required" 401, or "Admin Access Required" with their role, 403) inside the site, translated, as
 * on any page: the layout's loader throws the refusal and the root error boundary shows it.
 * Everyone else gets the answer of `serve` without a page being rendered: the file itself; or,
 * for a refused client that is not a browser asking for a page (an <img>, a script), the
 * refusal as JSON (when it accepts JSON) or as a short translated text. A database outage in
 * `serve` is a 503 with Retry-After, the same way.
 */
export function guardedFile<Args extends { request: Request; context: Readonly<RouterContextProvider> }>(
  serve: (args: Args) => Promise<Response> | Response,
) {
  return async (args: Args, next: () => Promise<Response>): Promise<Response> => {
    const { request, context } = args
    // React Router's own data request (the guard page revalidating): the page's loaders.
    if (new URL(request.url).pathname.endsWith('.data')) return next()
    const refusal = guardRefusal(context)
    if (refusal) {
      if (wantsPage(request)) return next()
      const code = refusal.status === 401 ? 'unauthorized' : 'forbidden'
      return failureAnswer(request, context, {
        status: refusal.status,
        code,
        messageKey: `errors.codes.${code}`,
      })
    }
    try {
      return await serve(args)
    } catch (error) {
      const outage = databaseUnavailableError(error)
      if (!outage) throw error
      return failureAnswer(request, context, toPublicError(outage), errorHeaders(outage))
    }
  }
}

/** A browser's navigation (GET or HEAD, with `text/html` acceptable): it is shown a page. */
export function wantsPage(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  return acceptable(request, 'text/html')
}

/** `Accept` names `type` with a quality above zero. */
function acceptable(request: Request, type: string): boolean {
  return (request.headers.get('Accept') ?? '').split(',').some((entry) => {
    const [name, ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase())
    const quality = parameters.find((parameter) => parameter.startsWith('q='))
    return name === type && (quality === undefined || Number(quality.slice(2)) > 0)
  })
}

/** A refusal or failure for a client that is not shown a page: JSON or text, translated, never stored. */
function failureAnswer(
  request: Request,
  context: Readonly<RouterContextProvider>,
  { status, code, messageKey }: { status: number; code: string; messageKey: string },
  extra: HeadersInit = {},
): Response {
  const message = translator(context.get(requestContext).language)(messageKey)
  const headers = new Headers(extra)
  headers.set('Cache-Control', 'private, no-store')
  headers.set('Vary', 'Accept')
  if (acceptable(request, 'application/json'))
    return Response.json({ error: { code, message } }, { status, headers })
  headers.set('Content-Type', 'text/plain; charset=utf-8')
  return new Response(message, { status, headers })
}
