import fs from 'node:fs'
import type { RequestListener } from 'node:http'
import path from 'node:path'
import { fromNodeHeaders, toNodeHandler } from 'better-auth/node'
import compression from 'compression'
import express, { type ErrorRequestHandler, type RequestHandler } from 'express'
import { pinoHttp } from 'pino-http'
import { RouterContextProvider, type ServerBuild } from 'react-router'
import { type RequestContext, requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { apiError } from '#app/lib/http-errors.ts'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { findBearerAccount, verifyBearerToken } from '#core/accounts/bearer-token.ts'
import { AssignRoleSchema, assignRole } from '#core/accounts/roles.ts'
import type { ContactForwarding } from '#core/contact/contact-service.ts'
import { MESSAGE_FORM_BODY_BYTES } from '#core/conversations/message-rules.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { REQUEST_FORM_BODY_BYTES } from '#core/orders/request-schemas.ts'
import { TRANSFER_FORM_BODY_BYTES } from '#core/payments/payment-schemas.ts'
import type { PaymentProvider } from '#core/payments/provider.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { hasThirdParty, type ThirdPartyConfig } from '#core/preferences/third-party.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { toRoleName } from '#core/shared/service-context.ts'
import { PACKING_FORM_BODY_BYTES } from '#core/shipping/shipment-schemas.ts'
import type { FileStore } from '#core/uploads/file-store.ts'
import { ARRIVAL_FORM_BODY_BYTES } from '#core/warehouse/arrival-schemas.ts'
import type { WhatsAppClient } from '#core/whatsapp/client.ts'
import type { Database } from '#db/client.ts'
import { documentAssets } from './document-assets.ts'
import { linkPreviewApi } from './link-preview-api.ts'
import { type Logger, redactUrl } from './logger.ts'
import { createRequestMetrics, metricsEndpoint, type RequestMetrics } from './metrics.ts'
import { createPageCache } from './page-cache.ts'
import { pageCacheFastPath, requestId } from './page-cache-fast-path.ts'
import { paymentWebhooks } from './payment-webhooks.ts'
import { preferences } from './preferences.ts'
import { reactRouterHandler } from './react-router-handler.ts'
import { securityHeaders } from './security-headers.ts'
import { type AccountsConfig, createServices, type OutboxUse, type Services } from './services.ts'
import { staticAssets } from './static-assets.ts'
import { whatsappWebhook } from './whatsapp-webhook.ts'

/**
 * The Express application. This file is the entry of the server build (see vite.config.ts),
 * so it and every route share one module graph: context keys and caches exist once.
 * Process concerns (database start-up, listening, shutdown) live in server/main.ts.
 */
export type AppDeps = {
  db: Database
  contactForwarding: ContactForwarding
  accounts: Omit<AccountsConfig, 'appUrl'>
  /** The process's job queue (started by server/main.ts); requests add jobs to it. */
  jobs: AppJobEnqueuer
  /** The payment providers the environment configures; none: bank transfers only. */
  payments?: readonly PaymentProvider[]
  /** Uploaded files made safe (package photos): core/uploads/file-store.ts. */
  files: FileStore
  /** Which messages wait in the outbox (no SMTP_URL, no Twilio); by default both. */
  outbox?: OutboxUse
  thirdParty: ThirdPartyConfig
  logger: Logger
  /** Answers whether the database can serve queries (for /readyz). */
  checkDatabase: () => Promise<void>
  /** True once a shutdown began: /readyz answers 503 and every answer closes its connection. */
  isShuttingDown?: () => boolean
  /** Told of every /readyz request: a balancer checking it makes the shutdown drain longer (server/env.ts). */
  onReadinessCheck?: () => void
  isProduction: boolean
  appUrl: string
  /** build/client in production; in development Vite serves assets. */
  clientDir?: string
  pageCache?: { enabled: boolean; ttlSeconds: number }
  trustProxy?: number
  /** METRICS_TOKEN: when set, GET /metrics answers Prometheus with it as a bearer token (server/metrics.ts). */
  metricsToken?: string | null
  /** LINK_PREVIEW_STAND_IN (tests only): the local shop stand-in every link preview reads. */
  linkPreviewStandIn?: { host: string; port: number } | null
  /** WhatsApp Cloud API (core/whatsapp/); null or absent: no webhook, no option shown. */
  whatsapp?: WhatsAppClient | null
}

const FORM_BODY_LIMIT_BYTES = 1024 * 1024
/**
 * The purchase-request form posts its photos with it (multipart, to /user-dashboard, or its
 * `.data` address with JavaScript): that page's multipart posts alone may be as long as the
 * form allows (photos up to 30 MiB in all, core/orders/request-schemas.ts). Its action reads the
 * body as it streams in, within the same limit (app/lib/form-data.server.ts).
 */
const UPLOAD_FORMS = [
  { path: /^\/user-dashboard(?:\/|\.data|\/_\.data)?$/, maxBytes: REQUEST_FORM_BODY_BYTES },
  // Staff booking a parcel in, with up to 8 photos (app/routes/admin/arrival.tsx).
  {
    path: /^\/admin-dashboard\/requests\/[0-9a-f-]{36}\/arrival(?:\.data)?$/,
    maxBytes: ARRIVAL_FORM_BODY_BYTES,
  },
  // Staff packing a shipment, with the photo of the box (app/routes/admin/shipment.tsx).
  { path: /^\/admin-dashboard\/shipments\/[0-9a-f-]{36}(?:\.data)?$/, maxBytes: PACKING_FORM_BODY_BYTES },
  // A customer's "I have paid", with a photo or PDF of the bank's receipt (docs/decisions/036).
  {
    path: /^\/user-dashboard\/(?:requests|shipments)\/[0-9a-f-]{36}(?:\.data)?$/,
    maxBytes: TRANSFER_FORM_BODY_BYTES,
  },
  // A message in a request's or shipment's conversation, with its photos or PDF (ADR 048).
  {
    path: /^\/(?:user|admin)-dashboard\/(?:requests|shipments)\/[0-9a-f-]{36}\/messages(?:\.data)?$/,
    maxBytes: MESSAGE_FORM_BODY_BYTES,
  },
]
const JSON_BODY_LIMIT = '100kb'
const MESSAGES: Record<Language, typeof en> = { en, es }

type PageCache = ReturnType<typeof createPageCache>

/** The page cache (production, when enabled), emptied whenever what the pages show changes. */
function connectPageCache(deps: AppDeps, services: Services): PageCache | null {
  const pageCache =
    deps.isProduction && deps.pageCache?.enabled
      ? createPageCache({ ttlMs: deps.pageCache.ttlSeconds * 1000 })
      : null
  if (pageCache) {
    services.settings.onInvalidate(() => pageCache.clear())
    // The calculator pages carry the rate tables.
    services.shippingRates.onInvalidate(() => pageCache.clear())
    services.importRules.onInvalidate(() => pageCache.clear())
    // The store guide, after an edit here (other processes hear the NOTIFY: settings above).
    services.catalog.onChange(() => pageCache.clear())
  }
  return pageCache
}

/** The request log: its id on every answer, and nothing of a URL that could be a credential. */
function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestId(req)
      res.setHeader('X-Request-Id', id)
      return id
    },
    autoLogging: {
      ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics',
    },
    // 503 is the database outage's answer (docs/decisions/015): logged once as a warning where
    // it was recognised, not as an error per request.
    customLogLevel: (_req, res, error) =>
      res.statusCode === 503 ? 'warn' : error || res.statusCode >= 500 ? 'error' : 'info',
    serializers: {
      // Reset and verification links are live credentials: never in the logs.
      req: (req) => ({ method: req.method, url: redactUrl(String(req.url)), id: req.id }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  })
}

/**
 * What every request goes through first, in this order: the shutdown's Connection: close, the
 * build's assets, the request log, preferences, the NUL check, security headers, compression.
 */
function frontMiddleware(
  app: express.Express,
  deps: AppDeps,
  site: { httpsSite: boolean; widgetsConfigured: boolean },
) {
  // During a shutdown every answer closes its connection, so keep-alive clients move elsewhere.
  if (deps.isShuttingDown) {
    const isShuttingDown = deps.isShuttingDown
    app.use((_req, res, next) => {
      if (isShuttingDown()) res.setHeader('Connection', 'close')
      next()
    })
  }
  // Hashed build files first: answered from memory, precompressed, without the page middleware.
  if (deps.clientDir) app.use('/assets', staticAssets(path.join(deps.clientDir, 'assets')))
  app.use(requestLogging(deps.logger))
  // Language, currency and consent first: the security headers and the page cache depend on them.
  app.use(preferences({ appUrl: deps.appUrl }))
  // A NUL byte in the address (path or query) reaches no route: PostgreSQL cannot hold it in
  // text (a search for `a%00b` was a 500), and no link or form of ours makes one. One check here
  // for every search, filter and id: 400, translated by the error handler.
  app.use((req, _res, next) => {
    if (NUL.test(req.originalUrl))
      return next(Object.assign(new Error('NUL in the address'), { status: 400 }))
    next()
  })
  app.use(
    securityHeaders({
      isProduction: deps.isProduction,
      httpsSite: site.httpsSite,
      allowsThirdParty: (res) => site.widgetsConfigured && res.locals.consent === 'granted',
    }),
  )
  // Level 4: nearly the size of the default 6 at a fraction of its CPU; every page is compressed per
  // response (its nonce differs each time).
  app.use(compression({ level: 4 }))
}

/**
 * Public files (favicon, images/…) are listed once at start-up, so a page request costs no
 * file-system lookup; each public folder is served under its own path.
 */
function publicFiles(app: express.Express, clientDir: string) {
  const entries = fs
    .readdirSync(clientDir, { withFileTypes: true })
    .filter((entry) => entry.name !== 'assets')
  const rootFiles = new Set(entries.filter((entry) => entry.isFile()).map((entry) => `/${entry.name}`))
  const serveRootFile = express.static(clientDir, { maxAge: '1h', index: false })
  app.use((req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()))
  for (const folder of entries.filter((entry) => entry.isDirectory())) {
    app.use(
      `/${folder.name}`,
      express.static(path.join(clientDir, folder.name), { maxAge: '1d', index: false, fallthrough: false }),
    )
  }
}

/** /healthz, /readyz and the public signing keys. */
function probeRoutes(app: express.Express, deps: AppDeps, services: Services) {
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' })
  })
  app.get('/readyz', async (req, res) => {
    deps.onReadinessCheck?.()
    res.set('Cache-Control', 'no-store')
    if (deps.isShuttingDown?.()) {
      res.status(503).json({ status: 'shutting-down' })
      return
    }
    try {
      await deps.checkDatabase()
      res.json({ status: 'ready' })
    } catch (error) {
      req.log.warn({ err: error }, 'readiness check failed')
      res.status(503).set('Retry-After', '5').json({ status: 'unavailable' })
    }
  })

  // Public signing keys, for clients that verify our JWTs (the auth handler serves them at
  // /api/auth/jwks too).
  app.get('/.well-known/jwks.json', async (_req, res, next) => {
    try {
      res.set('Cache-Control', 'public, max-age=300').json(await services.auth.api.getJwks())
    } catch (error) {
      next(error)
    }
  })
}

/** React Router's load context for one request: the services, the preferences, the log. */
function loadContext(deps: AppDeps, services: Services) {
  const assets = documentAssets(deps.clientDir)
  return (req: express.Request, res: express.Response) => {
    const context: RequestContext = {
      db: deps.db,
      catalog: services.catalog,
      contact: services.contact,
      reviews: services.reviews,
      // The socket's address, or the proxy's forwarded one when TRUST_PROXY says there is one.
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      settings: services.settings,
      shippingRates: services.shippingRates,
      importRules: services.importRules,
      linkPreview: services.linkPreview,
      orders: services.orders,
      language: res.locals.preferences.language,
      currency: res.locals.preferences.currency,
      nonce: res.locals.nonce,
      requestId: String(req.id),
      appUrl: deps.appUrl,
      thirdParty: deps.thirdParty,
      consent: res.locals.consent,
      flash: res.locals.flash ?? null,
      auth: services.auth,
      outbox: services.outbox,
      exportAccount: services.exportAccount,
      isProduction: deps.isProduction,
      documentAssets: assets,
      log: req.log,
      whatsapp: deps.whatsapp ?? null,
    }
    return new RouterContextProvider(new Map([[requestContext, context]]))
  }
}

/** The API, then the pages (behind the form checks), then the error handler. */
function appRoutes(app: express.Express, deps: AppDeps, services: Services, pageCache: PageCache | null) {
  // Payment webhooks read their body raw, so they come before the API router's JSON parser.
  app.use('/api', paymentWebhooks({ db: deps.db, orders: services.orders }))
  if (deps.whatsapp) app.use('/api', whatsappWebhook({ db: deps.db, jobs: deps.jobs, client: deps.whatsapp }))
  app.use('/api', linkPreviewApi({ auth: services.auth, previews: services.linkPreview }))
  app.use('/api', apiRouter(services.auth, deps.appUrl, deps.db))
  app.use(refuseCrossOriginForms())
  app.use(limitFormBodies(FORM_BODY_LIMIT_BYTES, UPLOAD_FORMS))
  app.use(
    reactRouterHandler({
      build: () => import('virtual:react-router/server-build') as Promise<ServerBuild>,
      mode: deps.isProduction ? 'production' : 'development',
      pageCache,
      getLoadContext: loadContext(deps, services),
    }),
  )
  app.use(errorHandler())
}

/**
 * A cached page for an anonymous visitor is answered in front of Express (its request handling
 * alone costs several times what serving the bytes does): docs/decisions/016. During a shutdown
 * everything goes through Express, which closes each connection after its answer.
 */
function requestListener(
  app: express.Express,
  deps: AppDeps,
  pageCache: PageCache | null,
  site: { httpsSite: boolean; widgetsConfigured: boolean },
  requests: RequestMetrics | null,
): RequestListener {
  const fastPath = pageCache
    ? pageCacheFastPath({
        pageCache,
        isProduction: deps.isProduction,
        httpsSite: site.httpsSite,
        widgetsConfigured: site.widgetsConfigured,
        trustProxy: deps.trustProxy ?? 0,
        logger: deps.logger,
      })
    : null
  const isShuttingDown = deps.isShuttingDown ?? (() => false)
  const listener: RequestListener = fastPath
    ? (req, res) => {
        if (isShuttingDown() || !fastPath(req, res)) app(req, res)
      }
    : app
  // With metrics, every request is counted here, the fast path's answers with the rest.
  return requests
    ? (req, res) => {
        requests.track(req, res)
        listener(req, res)
      }
    : listener
}

/** The services, the Express app with every middleware and route in order, and its request listener. */
export function createApp(deps: AppDeps) {
  const services = createServices({
    db: deps.db,
    contactForwarding: deps.contactForwarding,
    accounts: { ...deps.accounts, appUrl: deps.appUrl },
    jobs: deps.jobs,
    payments: deps.payments ?? [],
    files: deps.files,
    ...(deps.outbox ? { outbox: deps.outbox } : {}),
    linkPreview: {
      log: deps.logger,
      ...(deps.linkPreviewStandIn ? { standIn: deps.linkPreviewStandIn } : {}),
    },
  })
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', deps.trustProxy ?? 0)

  const pageCache = connectPageCache(deps, services)
  const site = {
    widgetsConfigured: hasThirdParty(deps.thirdParty),
    httpsSite: new URL(deps.appUrl).protocol === 'https:',
  }
  // Without a token there is no /metrics (a 404 like any unknown page) and nothing is counted.
  const requests = deps.metricsToken ? createRequestMetrics() : null
  frontMiddleware(app, deps, site)
  if (deps.clientDir) publicFiles(app, deps.clientDir)
  probeRoutes(app, deps, services)
  if (requests && deps.metricsToken) {
    const pool = deps.db.$client
    app.get(
      '/metrics',
      metricsEndpoint(deps.metricsToken, () => ({
        requests,
        pageCache,
        pool,
        jobs: pool,
        logger: deps.logger,
      })),
    )
  }
  appRoutes(app, deps, services, pageCache)
  const handler = requestListener(app, deps, pageCache, site, requests)
  return { app, handler, services }
}

function apiRouter(auth: Services['auth'], appUrl: string, db: Database) {
  const router = express.Router()
  const authHandler = toNodeHandler(auth)
  const ownOrigin = new URL(appUrl).origin
  // better-auth reads its own body, so it comes before the JSON parser. Its rate limits key on
  // x-client-ip, which we set from the socket (or the trusted proxy), overwriting the client's.
  router.all('/auth/*splat', guardAuthInput, (req, res, next) => {
    // Browsers send Origin on every cross-site POST: only our own may change state.
    if (
      req.method !== 'GET' &&
      req.method !== 'HEAD' &&
      req.headers.origin &&
      req.headers.origin !== ownOrigin
    ) {
      res.status(403).json({ error: { code: 'forbidden', message: 'Cross-origin request refused' } })
      return
    }
    req.headers['x-client-ip'] = req.ip ?? req.socket.remoteAddress ?? ''
    // better-auth answers its own failures; one it lets through (its rate limiter reading the
    // database before the endpoint runs, during an outage) goes to the error handler: 503.
    authHandler(req, res).catch(next)
  })
  router.use(express.json({ limit: JSON_BODY_LIMIT }))
  // Role assignment (the admin panel calls it): session, same origin, admins only. The answer
  // carries the spec's toast: a title and a message, in the visitor's language.
  router.post('/v1/roles', async (req, res, next) => {
    const language: Language = res.locals.preferences?.language ?? 'es'
    const t = MESSAGES[language].roles
    try {
      if (req.headers.origin !== ownOrigin) throw new AppError('forbidden', 'Cross-origin request refused')
      const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
      if (!session) throw new AppError('unauthorized', 'No session for a role assignment')
      const input = AssignRoleSchema.safeParse(req.body)
      if (!input.success)
        throw new AppError('invalid', 'Role assignment input is not valid', { reason: 'invalidRoleInput' })
      const actor = { id: session.user.id, role: toRoleName(session.user.role) }
      const assigned = await assignRole({ db, actor }, input.data)
      const roleName = MESSAGES[language].session.roles[assigned.role]
      res.json({
        ...assigned,
        title: t.assignedTitle,
        message: translator(language)('roles.assignedText', { role: roleName }),
      })
    } catch (caught) {
      const error = databaseUnavailableError(caught, { write: true }) ?? caught
      if (!isAppError(error)) return next(error)
      const { status, headers, body } = apiError(error, translator(language))
      const title = error.code === 'forbidden' ? t.deniedTitle : t.failedTitle
      res
        .status(status)
        .set(headers)
        .json({ error: { ...body.error, title } })
    }
  })
  // For other clients: who am I, from a bearer JWT (GET /api/auth/token issues one to a session).
  router.get('/v1/me', async (req, res, next) => {
    try {
      const token = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1]
      if (!token) {
        res.status(401).json({ error: { code: 'unauthorized', message: 'Missing bearer token' } })
        return
      }
      const { keys } = await auth.api.getJwks()
      const result = await verifyBearerToken(token, keys, { issuer: appUrl, audience: appUrl })
      if (!result.ok) {
        res.status(401).json({ error: { code: 'unauthorized', message: result.error } })
        return
      }
      const account = await findBearerAccount(db, result.claims)
      if (!account) {
        res.status(401).json({ error: { code: 'unauthorized', message: 'Session ended' } })
        return
      }
      res.set('Cache-Control', 'no-store').json(account)
    } catch (error) {
      next(error)
    }
  })
  router.use((req, res) => {
    res.status(404).json({
      error: { code: 'not_found', message: `No API route for ${req.method} ${req.baseUrl}${req.path}` },
    })
  })
  return router
}

/**
 * Form posts larger than the limit (a page with uploads has its own, for multipart posts), or that
 * are not forms, are refused before anything reads them.
 */
function limitFormBodies(
  maxBytes: number,
  uploadForms: readonly { path: RegExp; maxBytes: number }[],
): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next()
    const length = Number(req.headers['content-length'] ?? Number.NaN)
    const language: Language = res.locals.preferences.language
    if (Number.isNaN(length) && req.headers['transfer-encoding']) {
      res.status(411).type('text/plain').send(MESSAGES[language].errors.lengthRequired)
      return
    }
    const upload = req.is('multipart/form-data')
      ? uploadForms.find((form) => form.path.test(req.path))
      : undefined
    if (length > (upload?.maxBytes ?? maxBytes)) {
      res.status(413).type('text/plain').send(MESSAGES[language].errors.payloadTooLarge)
      return
    }
    // Every page action reads a form: anything else (JSON, text, none) cannot be one of ours.
    if (!req.is(['application/x-www-form-urlencoded', 'multipart/form-data'])) {
      res.status(415).type('text/plain').send(MESSAGES[language].errors.notAForm)
      return
    }
    next()
  }
}

/**
 * A page's form posted from another site (or from `Origin: null`): 403 with a translated line and
 * one warning in the log, before React Router, whose own check (the same rule: the Origin's host
 * is the request's) would log it as an error with a stack, which anyone could fill the log with.
 * A post without Origin goes on: React Router lets it through, and resource routes that change
 * state refuse it themselves (app/lib/same-origin.server.ts).
 */
function refuseCrossOriginForms(): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin
    if (req.method === 'GET' || req.method === 'HEAD' || origin === undefined) return next()
    let host: string | null = null
    try {
      host = origin === 'null' ? null : new URL(origin).host
    } catch {
      host = null
    }
    if (host !== null && host === req.get('host')) return next()
    req.log?.warn({ origin: origin.slice(0, 200) }, 'cross-origin form post refused')
    const language: Language = res.locals.preferences.language
    res
      .status(403)
      .type('text/plain')
      .set('Cache-Control', 'no-store')
      .send(MESSAGES[language].errors.crossOrigin)
  }
}

// Reads the auth handler's body first, with the API's limit: better-auth would read any size.
// The text is handed on as it came (better-call re-sends a body Express has read).
const readAuthBody = express.text({ type: () => true, limit: JSON_BODY_LIMIT })
// A NUL byte, raw or escaped in JSON or a URL: PostgreSQL cannot store it, and nobody types it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is this pattern's purpose
const NUL = /\u0000|\\u0000|%00/i

/** What the auth handler may receive: a stated length within the limit, and no NUL anywhere. */
const guardAuthInput: RequestHandler = (req, res, next) => {
  const refuse = (status: number, message: string) =>
    res.status(status).json({ error: { code: 'invalid', message } })
  const t = MESSAGES[(res.locals.preferences?.language as Language | undefined) ?? 'es'].errors
  if (NUL.test(req.originalUrl)) return refuse(400, t.badRequest)
  if (req.method === 'GET' || req.method === 'HEAD') return next()
  if (req.headers['transfer-encoding'] && req.headers['content-length'] === undefined)
    return refuse(411, t.lengthRequired)
  readAuthBody(req, res, (error?: unknown) => {
    if (error) return next(error)
    if (typeof req.body === 'string' && NUL.test(req.body)) return refuse(400, t.badRequest)
    // An empty body stays no body (better-auth asks a body, not its absence, for a content type).
    if (req.body === '') req.body = undefined
    next()
  })
}

/**
 * Errors outside React Router (middleware, body parsing, the JSON API). Never shows a stack in
 * production. A database outage is 503 with Retry-After and the "temporarily unavailable" message.
 */
function errorHandler(): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const outage = databaseUnavailableError(error, { write: req.method !== 'GET' && req.method !== 'HEAD' })
    if (outage) return unavailable(outage, req, res)
    const status = Number(error?.status ?? error?.statusCode ?? 500)
    const isClientError = status >= 400 && status < 500
    if (!isClientError) req.log?.error({ err: error }, 'unhandled error')
    if (res.headersSent) {
      res.end()
      return
    }
    const language: Language = res.locals.preferences?.language ?? 'es'
    const t = MESSAGES[language].errors
    const message = isClientError ? (status === 413 ? t.payloadTooLarge : t.badRequest) : t.unexpected
    if (req.path.startsWith('/api/') || req.accepts(['html', 'json']) === 'json') {
      res
        .status(isClientError ? status : 500)
        .json({ error: { code: isClientError ? 'invalid' : 'internal', message } })
      return
    }
    res
      .status(isClientError ? status : 500)
      .type('html')
      .send(
        `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${message}</title></head>` +
          `<body><main><h1>${message}</h1><p><a href="/">${MESSAGES[language].notFound.backHome}</a></p></main></body></html>`,
      )
  }
}

/** The answer to a request the database could not serve: 503, Retry-After, JSON or a short page. */
function unavailable(
  error: AppError,
  req: Parameters<ErrorRequestHandler>[1],
  res: Parameters<ErrorRequestHandler>[2],
) {
  req.log?.warn({ err: error }, 'database unavailable')
  if (res.headersSent) {
    res.end()
    return
  }
  const language: Language = res.locals.preferences?.language ?? 'es'
  const { status, headers, body } = apiError(error, translator(language))
  res.status(status).set(headers).set('Cache-Control', 'no-store')
  if (req.path.startsWith('/api/') || req.accepts(['html', 'json']) === 'json') {
    res.json(body)
    return
  }
  const message = body.error.message
  res
    .type('html')
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${message}</title></head>` +
        `<body><main><h1>${message}</h1><p><a href="">${MESSAGES[language].errors.tryAgain}</a></p></main></body></html>`,
    )
}
