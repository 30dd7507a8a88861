import type pg from 'pg'
import { type MiddlewareFunction, RouterContextProvider } from 'react-router'
import { type RequestContext, requestContext } from '#app/context.ts'
import { COOKIE_NAMES } from '#app/lib/cookies.server.ts'
import { answeringRouteErrors } from '#app/lib/http-errors.ts'
import { type Notice, parseNotice } from '#app/lib/notice.ts'
import { createOutboxSmsSender } from '#core/notifications/sms.ts'
import type { PaymentProvider } from '#core/payments/provider.ts'
import type { Database } from '#db/client.ts'
import { createServices, type Services } from '#server/services.ts'
import { onFileCleanup } from '#tests/db.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
  TEST_APP_URL,
  TEST_AUTH_SECRET,
} from './accounts.ts'
import { createTestFileStore } from './file-store.ts'

// Calling a route module's `loader` or `action` directly, with what the server would hand it:
//
//   const { db } = await createTestDatabase()
//   const context = createRouteContext(createTestServices(db), { language: 'en' })
//   const answer = await routeAnswer(() => action(routeArgs(formPost('/contact', fields), context)))
//   expect(answer.status).toBe(400)
//
// A route under a signed-in branch (app/routes.ts) runs its layout's middleware first:
//
//   const answer = await routeAnswer(() =>
//     throughMiddleware(layout.middleware, args, () => loader(args)),
//   )

/**
 * The app's services on a test database, as server/app.ts builds them: mail and SMS to the
 * outbox, jobs into the real queue (which this process does not work: a test runs what it needs),
 * the payment providers a test gives (none: bank transfers only).
 */
export async function createTestServices(
  db: Database,
  pool: pg.Pool,
  {
    payments = [],
    linkPreview = {},
  }: {
    payments?: readonly PaymentProvider[]
    /** The shop stand-in link previews read (tests/support/shop-stand-in/); none: the network. */
    linkPreview?: { standIn?: { host: string; port: number } }
  } = {},
): Promise<Services & { db: Database }> {
  const jobs = await startTestJobQueue(pool)
  onFileCleanup(() => jobs.stop({ timeoutMs: 1000 }))
  const services = createServices({
    db,
    jobs,
    payments,
    linkPreview,
    files: createTestFileStore(),
    contactForwarding: { accessKey: null, endpoint: 'http://127.0.0.1:9/forward' },
    accounts: {
      appUrl: TEST_APP_URL,
      secret: TEST_AUTH_SECRET,
      adminEmails: [],
      google: null,
      sms: createOutboxSmsSender({ db }),
      rateLimitFactor: 1,
    },
  })
  return { ...services, db }
}

/** The per-request context server/app.ts's getLoadContext builds, with test values; override any. */
export function createRouteContext(
  services: Services & { db: Database },
  overrides: Partial<RequestContext> = {},
) {
  const quiet = () => undefined
  const context: RequestContext = {
    db: services.db,
    catalog: services.catalog,
    contact: services.contact,
    reviews: services.reviews,
    clientIp: '203.0.113.10',
    settings: services.settings,
    shippingRates: services.shippingRates,
    importRules: services.importRules,
    linkPreview: services.linkPreview,
    orders: services.orders,
    language: 'es',
    currency: 'JPY',
    nonce: 'test-nonce',
    requestId: 'test-request',
    appUrl: TEST_APP_URL,
    thirdParty: { reviewsWidgetId: null, instagramWidgetId: null, scriptUrl: 'https://widgets.example/x.js' },
    consent: null,
    flash: null,
    auth: services.auth,
    outbox: services.outbox,
    exportAccount: services.exportAccount,
    isProduction: false,
    documentAssets: { documents: false, stylesheetText: () => null, island: () => null },
    log: { info: quiet, warn: quiet, error: quiet },
    ...overrides,
  }
  return new RouterContextProvider(new Map([[requestContext, context]]))
}

/**
 * Runs a branch's middleware (a layout's `middleware` export, then the route's own) around a
 * loader or action, as React Router does: each calls the next, the last the handler; a middleware
 * that returns a Response without calling next() answers in their place (a file route:
 * app/middleware/guarded-file.server.ts).
 */
export async function throughMiddleware<Result>(
  middleware: readonly MiddlewareFunction<Response>[],
  args: ReturnType<typeof routeArgs>,
  handler: () => Promise<Result> | Result,
): Promise<Result | Response> {
  let result: Result | Response | undefined
  const run = async (index: number): Promise<Response | undefined> => {
    const current = middleware[index]
    if (!current) {
      result = await handler()
      return undefined
    }
    let called = false
    const next = () => {
      called = true
      return run(index + 1) as Promise<Response>
    }
    const answer = await current(args as never, next)
    if (!called && answer instanceof Response) {
      result = answer
      return answer
    }
    // As React Router does: a middleware that returns nothing without calling next() is followed by it.
    if (!called) await next()
    return answer ?? undefined
  }
  await run(0)
  return result as Result | Response
}

/**
 * A file's address (a photo, the CSV, "download my data": app/middleware/guarded-file.server.ts)
 * behind its branch, as React Router runs it: the layout's middleware, then the route's own, which
 * answers the file (or a refusal in a few words); where React Router would render the page
 * instead (a browser refused by the guard), the layout's loader runs and throws the guard.
 */
export function callFileRoute(
  services: Services & { db: Database },
  branch: { middleware: readonly MiddlewareFunction<Response>[]; loader: (args: never) => unknown },
  // Typed with the route's own params: any route's middleware.
  route: { middleware: readonly ((args: never, next: never) => unknown)[] },
  request: Request,
  options: { params?: Record<string, string>; context?: Partial<RequestContext> } = {},
) {
  return callRoute(
    services,
    [...branch.middleware, ...(route.middleware as readonly MiddlewareFunction<Response>[])],
    request,
    (args) => branch.loader(args as never),
    options,
  )
}

/** A loader's or action's arguments for `request` (route params, when the path has any). */
export function routeArgs(
  request: Request,
  context: RouterContextProvider,
  params: Record<string, string> = {},
) {
  const url = new URL(request.url)
  return { request, context, params, url, pattern: url.pathname }
}

/** A GET of `path` on the app's address, with the given cookies. */
export function pageRequest(path: string, { cookie }: { cookie?: string } = {}) {
  return new Request(new URL(path, TEST_APP_URL), { headers: cookie ? { cookie } : {} })
}

/** A form post to `path`, as a browser sends it (url-encoded; FormData goes as multipart). */
export function formPost(
  path: string,
  fields: Record<string, string> | FormData,
  { cookie }: { cookie?: string } = {},
) {
  const headers = new Headers({ origin: TEST_APP_URL })
  if (cookie) headers.set('cookie', cookie)
  const body = fields instanceof FormData ? fields : new URLSearchParams(fields)
  return new Request(new URL(path, TEST_APP_URL), { method: 'POST', headers, body })
}

export type RouteAnswer = { status: number; headers: Headers; data: unknown }

/**
 * What a loader or action answered, returned or thrown, as status, headers and data: a
 * `Response` (a redirect), `data(…, init)`, or plain data (200). Anything else thrown is rethrown.
 */
export async function routeAnswer(
  run: () => unknown,
  { write = false }: { write?: boolean } = {},
): Promise<RouteAnswer> {
  let outcome: unknown
  try {
    // As the server runs every loader and action: through the one error path.
    outcome = await answeringRouteErrors(async () => run(), write)()
  } catch (error) {
    if (!(error instanceof Response) && !isDataWithInit(error)) throw error
    outcome = error
  }
  if (outcome instanceof Response) {
    const text = await outcome.text()
    let data: unknown = text
    try {
      data = JSON.parse(text)
    } catch {}
    return { status: outcome.status, headers: outcome.headers, data }
  }
  if (isDataWithInit(outcome)) {
    return {
      status: outcome.init?.status ?? 200,
      headers: new Headers(outcome.init?.headers),
      data: outcome.data,
    }
  }
  return { status: 200, headers: new Headers(), data: outcome }
}

/**
 * Where a redirect goes and the notice it carries in the flash cookie (app/lib/notice.ts), as the
 * next page's root loader reads it: `{ location, notice }`, `notice` null when there is none.
 */
export function redirectOf(answer: { headers: Headers }): { location: string | null; notice: Notice | null } {
  const line = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${COOKIE_NAMES.flash}=`))
  const value = line
    ? decodeURIComponent(line.slice(COOKIE_NAMES.flash.length + 1).split(';')[0] ?? '')
    : null
  return { location: answer.headers.get('location'), notice: value ? parseNotice(value) : null }
}

/** react-router's `data()` result (its class is not exported). */
function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'DataWithResponseInit'
  )
}

/**
 * A password account (named after its e-mail's local part) with an open session: the account, its
 * session token and the signed session cookie a browser would send.
 */
export async function signedInCaller(
  pool: pg.Pool,
  { email, role = 'user' }: { email: string; role?: 'user' | 'admin' | 'moderator' },
) {
  const account = await insertPasswordAccount(pool, { email, name: email.split('@')[0], role })
  const token = await insertSession(pool, account.id)
  return { ...account, token, cookie: `${SESSION_COOKIE}=${signedSessionCookie(token, TEST_AUTH_SECRET)}` }
}

/**
 * Calls a loader or action for `request` through a branch's middleware, in a fresh route context
 * (as the server makes one per request), and returns what it answered (see routeAnswer).
 */
export function callRoute(
  services: Services & { db: Database },
  middleware: readonly MiddlewareFunction<Response>[],
  request: Request,
  handler: (args: ReturnType<typeof routeArgs>) => unknown,
  { params = {}, context = {} }: { params?: Record<string, string>; context?: Partial<RequestContext> } = {},
) {
  return routeAnswer(
    () => {
      const args = routeArgs(request, createRouteContext(services, context), params)
      return throughMiddleware(middleware, args, () => handler(args))
    },
    { write: request.method !== 'GET' && request.method !== 'HEAD' },
  )
}
