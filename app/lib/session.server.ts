import { type RouterContextProvider, redirect } from 'react-router'
import { requestContext } from '#app/context.ts'
import { isDatabaseUnavailable } from '#core/shared/database-errors.ts'
import { type RoleName, toRoleName } from '#core/shared/service-context.ts'

/**
 * Headers of the account pages: never cached, and no Referer to other sites (the reset link's
 * token, a pending sign-in). `same-origin`, not `no-referrer`: with no-referrer a browser sends
 * `Origin: null` on a form post, which the same-origin check refuses, and the forms must work
 * without JavaScript.
 */
export function accountPageHeaders() {
  return { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' }
}

export type Role = RoleName
export type SessionUser = { id: string; name: string; email: string; role: Role }

/** One session lookup per page request, shared by the root loader and the page's own. */
const lookups = new WeakMap<object, Promise<SessionUser | null>>()

/**
 * The signed-in user, or null. Anonymous visitors cost no query; a role that is missing, unknown
 * or cannot be read counts as `user`, and a failed lookup as signed out. A GET's loaders share one
 * lookup; a POST looks again, as its action may just have changed the session.
 */
export function getSessionUser(
  context: Readonly<RouterContextProvider>,
  request: Request,
): Promise<SessionUser | null> {
  if (request.method !== 'GET') return lookUpSessionUser(context, request)
  let lookup = lookups.get(context)
  if (!lookup) {
    lookup = lookUpSessionUser(context, request)
    lookups.set(context, lookup)
  }
  return lookup
}

async function lookUpSessionUser(
  context: Readonly<RouterContextProvider>,
  request: Request,
): Promise<SessionUser | null> {
  if (!/session_token=/.test(request.headers.get('cookie') ?? '')) return null
  const { auth, log } = context.get(requestContext)
  const session = await auth.api.getSession({ headers: request.headers }).catch((error: unknown) => {
    // A database outage is not "signed out": it becomes 503 (server/react-router-handler.ts).
    if (isDatabaseUnavailable(error)) throw error
    log.warn({ err: error }, 'session lookup failed')
    return null
  })
  if (!session) return null
  return {
    id: session.user.id,
    name: session.user.name,
    email: session.user.email,
    role: toRoleName(session.user.role),
  }
}

/**
 * Calls the auth handler the way the browser would (same origin, the visitor's cookies and IP),
 * so its origin check and rate limits apply to our forms too.
 */
export async function authRequest(
  context: Readonly<RouterContextProvider>,
  request: Request,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{
  status: number
  data: Record<string, unknown> | null
  headers: Headers
  setCookies: string[]
  /** Seconds from the answer's Retry-After header, when it has one. */
  retryAfterSeconds: number | undefined
}> {
  const { auth, appUrl, clientIp } = context.get(requestContext)
  const headers = new Headers({ origin: appUrl, 'x-client-ip': clientIp })
  if (method === 'POST') headers.set('content-type', 'application/json')
  const cookie = request.headers.get('cookie')
  if (cookie) headers.set('cookie', cookie)
  const response = await auth.handler(
    new Request(`${appUrl}/api/auth${path}`, {
      method,
      headers,
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    }),
  )
  const data = (await response.json().catch(() => null)) as Record<string, unknown> | null
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN)
  return {
    status: response.status,
    data,
    headers: response.headers,
    setCookies: response.headers.getSetCookie(),
    retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
  }
}

/** A redirect that carries the auth handler's cookies (and any of our own). */
export function redirectWithCookies(to: string, setCookies: string[], ...extra: string[]) {
  const headers = new Headers()
  for (const cookie of [...setCookies, ...extra]) headers.append('Set-Cookie', cookie)
  return redirect(to, { headers })
}

export type GuardFailure = { guard: 'login'; redirectTo: string } | { guard: 'admin'; role: Role }
