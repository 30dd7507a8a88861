import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'
import { type GuardFailure, getSessionUser, type SessionUser } from '#app/lib/session.server.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'

/**
 * Who is asking, resolved once for a branch of routes: routes.ts puts the customer area, the
 * account pages and the admin area under a layout whose middleware is one of these. Ownership
 * and roles beyond "signed in" and "admin" are the services' own policy (core/), since routes are
 * not their only callers.
 *
 * A refused action (POST…) is refused here, before it runs. A refused read (GET) is refused by
 * `getUser()`, which every loader of the branch calls (the layout's own loader too, for pages
 * that read nothing): thrown from a loader, the guard page renders inside the site's header and
 * footer, which a throw from middleware cannot do (the root loader would not have run).
 */
type Verdict = { user: SessionUser } | { refusal: ReturnType<typeof data<GuardFailure>> }

const verdictContext = createContext<Verdict | null>(null)

function guardMiddleware(check: (user: SessionUser | null, request: Request) => Verdict) {
  const middleware: MiddlewareFunction<Response> = async ({ request, context }) => {
    const verdict = check(await getSessionUser(context, request), request)
    if ('refusal' in verdict && request.method !== 'GET' && request.method !== 'HEAD') throw verdict.refusal
    context.set(verdictContext, verdict)
  }
  return middleware
}

function loginRequired(request: Request): Verdict {
  const { pathname, search } = new URL(request.url)
  return {
    refusal: data({ guard: 'login', redirectTo: `${pathname}${search}` } satisfies GuardFailure, {
      status: 401,
    }),
  }
}

/** Signed in, any role; otherwise the "Login Required" page (401). */
export const requireUserMiddleware = guardMiddleware((user, request) =>
  user ? { user } : loginRequired(request),
)

/** An admin; otherwise "Login Required" (401) or "Admin Access Required" with the role (403). */
export const requireAdminMiddleware = guardMiddleware((user, request) => {
  if (!user) return loginRequired(request)
  if (user.role !== 'admin')
    return { refusal: data({ guard: 'admin', role: user.role } satisfies GuardFailure, { status: 403 }) }
  return { user }
})

/**
 * Staff: an admin or a moderator (the request queue and its pages, docs/decisions/021); otherwise
 * "Login Required" (401) or "Admin Access Required" with the role (403). What each staff role may
 * do there is the services' policy (core/shared/staff-policy.ts).
 */
export const requireStaffMiddleware = guardMiddleware((user, request) => {
  if (!user) return loginRequired(request)
  if (user.role !== 'admin' && user.role !== 'moderator')
    return { refusal: data({ guard: 'admin', role: user.role } satisfies GuardFailure, { status: 403 }) }
  return { user }
})

/** The signed-in user of a route under one of the middlewares above; throws their refusal. */
export function getUser(context: Readonly<RouterContextProvider>): SessionUser {
  const verdict = context.get(verdictContext)
  if (!verdict)
    throw new Error(
      'getUser() used on a route outside requireUserMiddleware/requireAdminMiddleware/requireStaffMiddleware',
    )
  if ('refusal' in verdict) throw verdict.refusal
  return verdict.user
}

/**
 * This request's refusal by its branch's guard (the status and what the guard page shows), or
 * null when the visitor may enter: for a route that answers a file (app/middleware/guarded-file.server.ts).
 */
export function guardRefusal(
  context: Readonly<RouterContextProvider>,
): { status: number; failure: GuardFailure } | null {
  const verdict = context.get(verdictContext)
  if (!verdict || !('refusal' in verdict)) return null
  return { status: verdict.refusal.init?.status ?? 401, failure: verdict.refusal.data }
}

/** `{ db, actor }` for the services, from a route under one of the middlewares above. */
export function getServiceContext(context: Readonly<RouterContextProvider>): ServiceContext {
  const user = getUser(context)
  return { db: context.get(requestContext).db, actor: { id: user.id, role: user.role } }
}

/** `getServiceContext` plus what the order services need (the job queue, the settings). */
export function getOrderContext(context: Readonly<RouterContextProvider>): OrderContext {
  return { ...getServiceContext(context), ...context.get(requestContext).orders }
}
