import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { RequestHandler } from 'express'
import type { Logger } from './logger.ts'

/**
 * Prometheus metrics (issue 33), in the text exposition format (version 0.0.4), written here
 * rather than with a client library: a few counters, gauges and one histogram family.
 *
 * Per request the cost is one `close` listener and, when the answer ends, a few Map lookups and
 * number increments (no string is built unless the path is new). Everything else (the page cache,
 * the database pool, the job queue, the process) is read at scrape time.
 */

/** Latency buckets, seconds: a cached page is well under 5 ms, a slow report several seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

export type Labels = Readonly<Record<string, string>>
export type Sample = { labels?: Labels; value: number }
export type HistogramSeries = {
  labels?: Labels
  /** Per bucket (not cumulative), one per bound in `buckets`; observations above the last bound are only in `count`. */
  counts: readonly number[]
  sum: number
  count: number
}

// ---------------------------------------------------------------------------------------------
// The text exposition format
// ---------------------------------------------------------------------------------------------

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === '\n' ? '\\n' : `\\${character}`))
}

/** HELP text escapes backslash and line feed only. */
function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (character) => (character === '\n' ? '\\n' : '\\\\'))
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Number.POSITIVE_INFINITY) return '+Inf'
  if (value === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(value)
}

export function formatLabels(labels: Labels | undefined, extra?: [string, string]): string {
  const parts: string[] = []
  if (labels)
    for (const [name, value] of Object.entries(labels)) parts.push(`${name}="${escapeLabelValue(value)}"`)
  if (extra) parts.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

function header(name: string, type: string, help: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`
}

export function counter(name: string, help: string, samples: readonly Sample[]): string {
  return simpleFamily(name, 'counter', help, samples)
}

export function gauge(name: string, help: string, samples: readonly Sample[]): string {
  return simpleFamily(name, 'gauge', help, samples)
}

function simpleFamily(name: string, type: string, help: string, samples: readonly Sample[]): string {
  let text = header(name, type, help)
  for (const sample of samples) text += `${name}${formatLabels(sample.labels)} ${formatValue(sample.value)}\n`
  return text
}

/** A histogram family: `_bucket{le=…}` (cumulative, ending with +Inf), `_sum` and `_count` per series. */
export function histogram(
  name: string,
  help: string,
  buckets: readonly number[],
  series: readonly HistogramSeries[],
): string {
  let text = header(name, 'histogram', help)
  for (const one of series) {
    let cumulative = 0
    buckets.forEach((bound, index) => {
      cumulative += one.counts[index] ?? 0
      text += `${name}_bucket${formatLabels(one.labels, ['le', formatValue(bound)])} ${cumulative}\n`
    })
    text += `${name}_bucket${formatLabels(one.labels, ['le', '+Inf'])} ${one.count}\n`
    text += `${name}_sum${formatLabels(one.labels)} ${formatValue(one.sum)}\n`
    text += `${name}_count${formatLabels(one.labels)} ${one.count}\n`
  }
  return text
}

// ---------------------------------------------------------------------------------------------
// Route labels: bounded cardinality
// ---------------------------------------------------------------------------------------------

/** The label of every answer we do not name a route for: 404s, and paths past the cap. */
export const OTHER_ROUTE = 'other'
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
// A segment kept as it is: a word (letters, `-`, `_`, `.`), as every fixed part of our routes is.
// Anything else (a uuid, a number, a quote code, a file name with digits, an encoded character)
// is a parameter.
const WORD_SEGMENT = /^[A-Za-z][A-Za-z_.-]{0,39}$/
const MAX_SEGMENTS = 8

/**
 * The route pattern of a path: ids, numbers, codes and other non-words become `:id`, hashed
 * assets `/assets/*`, a React Router data request keeps its `.data`. A path of more than 8
 * segments is `other`.
 */
export function normaliseRoute(pathname: string): string {
  if (pathname === '/') return '/'
  if (pathname.startsWith('/assets/')) return '/assets/*'
  let path = pathname
  let suffix = ''
  if (path.endsWith('.data')) {
    suffix = '.data'
    path = path.slice(0, -5)
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  const segments = path.split('/')
  if (segments.length > MAX_SEGMENTS + 1) return OTHER_ROUTE
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index] ?? ''
    if (!(segment === '_' && suffix) && !WORD_SEGMENT.test(segment)) segments[index] = ':id'
  }
  return segments.join('/') + suffix
}

type MethodSeries = {
  statuses: Map<number, number>
  counts: number[]
  sum: number
  count: number
}

/** Paths up to this long are remembered with their route (at most `maxPaths` of them): a few hundred KB at worst. */
const REMEMBERED_PATH_LENGTH = 200

/**
 * Requests by route, method and status, and their durations by route and method. At most
 * `maxRoutes` distinct routes are kept; later new ones count as `other`. A path is normalised
 * once and remembered (up to `maxPaths` paths).
 */
export function createRequestMetrics({ maxRoutes = 200, maxPaths = 2_000 } = {}) {
  const routes = new Map<string, Map<string, MethodSeries>>()
  const pathRoutes = new Map<string, string>()

  function routeOf(url: string, status: number): string {
    if (status === 404) return OTHER_ROUTE
    const query = url.indexOf('?')
    const pathname = query === -1 ? url : url.slice(0, query)
    const known = pathRoutes.get(pathname)
    if (known !== undefined) return known
    let route = pathname.charCodeAt(0) === 47 ? normaliseRoute(pathname) : OTHER_ROUTE
    if (!routes.has(route) && routes.size >= maxRoutes) route = OTHER_ROUTE
    if (pathRoutes.size < maxPaths && pathname.length <= REMEMBERED_PATH_LENGTH)
      pathRoutes.set(pathname, route)
    return route
  }

  function observe(method: string | undefined, url: string, status: number, seconds: number) {
    const route = routeOf(url, status)
    let methods = routes.get(route)
    if (!methods) {
      methods = new Map()
      routes.set(route, methods)
    }
    const methodLabel = method && METHODS.has(method) ? method : 'other'
    let series = methods.get(methodLabel)
    if (!series) {
      series = { statuses: new Map(), counts: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 }
      methods.set(methodLabel, series)
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1)
    for (let index = 0; index < DURATION_BUCKETS.length; index++) {
      if (seconds <= (DURATION_BUCKETS[index] ?? 0)) {
        series.counts[index] = (series.counts[index] ?? 0) + 1
        break
      }
    }
    series.sum += seconds
    series.count++
  }

  /**
   * Counts this request when its answer ends (or its client goes away first: status 499, as
   * nginx names it). The path is taken now: Express rewrites `req.url` inside mounted routers.
   */
  function track(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now()
    const url = req.url ?? ''
    res.on('close', () => {
      observe(
        req.method,
        url,
        res.writableFinished ? res.statusCode : 499,
        (performance.now() - started) / 1000,
      )
    })
  }

  function render(): string {
    const totals: Sample[] = []
    const durations: HistogramSeries[] = []
    for (const [route, methods] of routes) {
      for (const [method, series] of methods) {
        for (const [status, value] of series.statuses)
          totals.push({ labels: { route, method, status: String(status) }, value })
        durations.push({
          labels: { route, method },
          counts: series.counts,
          sum: series.sum,
          count: series.count,
        })
      }
    }
    return (
      counter('http_requests_total', 'HTTP requests answered, by route pattern, method and status.', totals) +
      histogram(
        'http_request_duration_seconds',
        'Time from the request to the end of its answer, by route pattern and method.',
        DURATION_BUCKETS,
        durations,
      )
    )
  }

  return { observe, track, render }
}

export type RequestMetrics = ReturnType<typeof createRequestMetrics>

// ---------------------------------------------------------------------------------------------
// What is read at scrape time
// ---------------------------------------------------------------------------------------------

/** pg's Pool counts. */
export type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number }
/** Something that runs one SQL query (pg's Pool). */
export type Queryable = { query(text: string): Promise<{ rows: unknown[] }> }
export type PageCacheCounts = { hits: number; misses: number; size: number }

/**
 * Waiting jobs per pg-boss queue (schema `pgboss`, pg-boss 12: one `job` table partitioned by
 * queue name, `queue` listing the queues): created or retry. The age is that of the oldest job
 * that is due (its start_after passed) and still not taken: how far behind the workers are. A
 * job deferred to later (a retry's back-off, a scheduled send) counts in the depth, not the age.
 */
export const JOBS_QUERY = `
  SELECT q.name,
         count(j.id)::int AS depth,
         coalesce(extract(epoch FROM now() - min(j.start_after) FILTER (WHERE j.start_after <= now())), 0)::float8 AS oldest
    FROM pgboss.queue q
    LEFT JOIN pgboss.job j ON j.name = q.name AND j.state IN ('created', 'retry')
   GROUP BY q.name
   ORDER BY q.name`

type JobRow = { name: string; depth: number; oldest: number }

const JOBS_TIMEOUT_MS = 3_000

async function jobsFamilies(database: Queryable, logger?: Logger): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  try {
    const result = await Promise.race([
      database.query(JOBS_QUERY),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('job queue query timed out')), JOBS_TIMEOUT_MS)
      }),
    ])
    const rows = result.rows as JobRow[]
    return (
      gauge('jobs_queue_depth', 'Jobs waiting in each queue (created or retry, due or deferred).', [
        ...rows.map((row) => ({ labels: { queue: row.name }, value: Number(row.depth) })),
      ]) +
      gauge(
        'jobs_oldest_waiting_seconds',
        'Age of the oldest due job not yet taken in each queue (0 when none waits).',
        rows.map((row) => ({ labels: { queue: row.name }, value: Number(row.oldest) })),
      ) +
      gauge('jobs_metrics_up', '1 when the job queue could be read for this scrape.', [{ value: 1 }])
    )
  } catch (error) {
    logger?.warn({ err: error }, 'metrics: the job queue could not be read')
    return gauge('jobs_metrics_up', '1 when the job queue could be read for this scrape.', [{ value: 0 }])
  } finally {
    clearTimeout(timer)
  }
}

const LOOP_RESOLUTION_MS = 10
let loopDelay: ReturnType<typeof monitorEventLoopDelay> | null = null

/** Samples the event loop every 10 ms (a native timer: no work on the loop per sample). */
function monitorLoopDelay() {
  if (loopDelay) return loopDelay
  loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS })
  loopDelay.enable()
  return loopDelay
}

function processFamilies(): string {
  const loop = monitorLoopDelay()
  const cpu = process.cpuUsage()
  const memory = process.memoryUsage()
  // Since the last scrape (then reset); 0 before the first sample. Node records each interval
  // between samples, the sampling period included: the delay is what exceeds it.
  const delay = (value: number) =>
    Number.isFinite(value) && loop.count ? Math.max(0, value / 1e6 - LOOP_RESOLUTION_MS) / 1000 : 0
  const text =
    counter('process_cpu_user_seconds_total', 'User CPU time spent by the process.', [
      { value: cpu.user / 1e6 },
    ]) +
    counter('process_cpu_system_seconds_total', 'System CPU time spent by the process.', [
      { value: cpu.system / 1e6 },
    ]) +
    counter('process_cpu_seconds_total', 'User and system CPU time spent by the process.', [
      { value: (cpu.user + cpu.system) / 1e6 },
    ]) +
    gauge('process_resident_memory_bytes', 'Resident memory of the process.', [{ value: memory.rss }]) +
    gauge('process_heap_used_bytes', 'V8 heap in use.', [{ value: memory.heapUsed }]) +
    gauge('process_start_time_seconds', 'When the process started, seconds since the Unix epoch.', [
      { value: Math.round((Date.now() - process.uptime() * 1000) / 1000) },
    ]) +
    gauge(
      'process_event_loop_delay_seconds',
      'Event-loop delay since the previous scrape (beyond its 10 ms sampling period).',
      [
        { labels: { quantile: '0.5' }, value: delay(loop.percentile(50)) },
        { labels: { quantile: '0.99' }, value: delay(loop.percentile(99)) },
        { labels: { quantile: '1' }, value: delay(loop.max) },
      ],
    )
  loop.reset()
  return text
}

export type MetricsSources = {
  requests: RequestMetrics
  pageCache?: PageCacheCounts | null
  pool?: PoolCounts | null
  jobs?: Queryable | null
  logger?: Logger
}

/** The whole exposition: requests, page cache, database pool, job queue, process. */
export async function renderMetrics(sources: MetricsSources): Promise<string> {
  let text = sources.requests.render()
  const cache = sources.pageCache
  if (cache) {
    text +=
      counter('page_cache_hits_total', 'Pages answered from the page cache (fast path and Express).', [
        { value: cache.hits },
      ]) +
      counter('page_cache_misses_total', 'Cacheable page requests the cache could not answer.', [
        { value: cache.misses },
      ]) +
      gauge('page_cache_entries', 'Pages held in the page cache.', [{ value: cache.size }])
  }
  const pool = sources.pool
  if (pool) {
    text +=
      gauge('db_pool_total', 'Connections in the database pool (idle and in use).', [
        { value: pool.totalCount },
      ]) +
      gauge('db_pool_idle', 'Idle connections in the database pool.', [{ value: pool.idleCount }]) +
      gauge('db_pool_waiting', 'Queries waiting for a pool connection.', [{ value: pool.waitingCount }])
  }
  if (sources.jobs) text += await jobsFamilies(sources.jobs, sources.logger)
  return text + processFamilies()
}

// ---------------------------------------------------------------------------------------------
// The endpoint
// ---------------------------------------------------------------------------------------------

/** Whether an Authorization header carries this bearer token, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? ''
  // Digests make both sides one length, so the comparison says nothing about the token's length.
  const same = timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(token).digest(),
  )
  return same && given.length > 0
}

/** GET /metrics: the exposition for `Authorization: Bearer <METRICS_TOKEN>`, 401 otherwise. */
export function metricsEndpoint(token: string, sources: () => MetricsSources): RequestHandler {
  monitorLoopDelay()
  return async (req, res, next) => {
    res.set('Cache-Control', 'no-store')
    if (!bearerMatches(req.get('authorization'), token)) {
      res.status(401).set('WWW-Authenticate', 'Bearer').type('text/plain').send('Unauthorized\n')
      return
    }
    try {
      const text = await renderMetrics(sources())
      res.set('Content-Type', 'text/plain; version=0.0.4; charset=utf-8').send(text)
    } catch (error) {
      next(error)
    }
  }
}
