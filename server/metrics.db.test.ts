import { beforeAll, expect, test } from 'vitest'
import { type ServerProcess, startAppOnTestDatabase } from '#tests/system/server-process.ts'

// The production server (build/server), as Prometheus and an operator see it: /metrics exists only
// with METRICS_TOKEN, answers only that bearer token, and counts what the server did, cached
// pages answered in front of Express included.
const TOKEN = 'metrics-test-token-0123456789'

let plain: ServerProcess
let metered: Awaited<ReturnType<typeof startAppOnTestDatabase>>

beforeAll(async () => {
  const [without, withToken] = await Promise.all([
    startAppOnTestDatabase(),
    startAppOnTestDatabase({ METRICS_TOKEN: TOKEN, PAGE_CACHE_TTL_SECONDS: '600' }),
  ])
  plain = without.server
  metered = withToken
})

const scrape = (server: ServerProcess, authorization?: string) =>
  fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} })

/** A sample's value in an exposition, or null when the series is absent. */
function sample(text: string, series: string): number | null {
  for (const line of text.split('\n'))
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1))
  return null
}

test('without METRICS_TOKEN there is no /metrics', async () => {
  const response = await scrape(plain, `Bearer ${TOKEN}`)
  expect(response.status).toBe(404)
  expect(await response.text()).not.toContain('http_requests_total')
})

test('with it, /metrics answers the bearer token only', async () => {
  for (const authorization of [
    undefined,
    `Bearer ${TOKEN}x`,
    `Bearer ${TOKEN.slice(0, -1)}`,
    `Basic ${TOKEN}`,
  ]) {
    const response = await scrape(metered.server, authorization)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(await response.text()).not.toContain('http_requests_total')
  }
})

test('the counts move with the requests: a page, a cached page in front of Express, a 404, the job queue', async () => {
  const { server, database } = metered
  // A dead-lettered job nobody works on, waiting for a minute: the queue depth and age show it.
  const { rows } = await database.pool.query<{ name: string }>(
    `SELECT name FROM pgboss.queue WHERE name LIKE '%.dead' ORDER BY name LIMIT 1`,
  )
  const deadQueue = rows[0]?.name
  expect(deadQueue).toBeDefined()
  await database.pool.query(
    `INSERT INTO pgboss.job (name, data, start_after, created_on)
     VALUES ($1, '{}', now() - interval '60 seconds', now() - interval '60 seconds')`,
    [deadQueue],
  )

  const authorization = `Bearer ${TOKEN}`
  const before = await (await scrape(server, authorization)).text()
  const gzip = { 'accept-encoding': 'gzip' }
  const rendered = await fetch(`${server.url}/services`, { headers: gzip })
  const cached = await fetch(`${server.url}/services`, { headers: gzip })
  expect(cached.headers.get('x-page-cache')).toBe('HIT')
  const missing = await fetch(`${server.url}/no-such-page/12345`)
  expect([rendered.status, cached.status, missing.status]).toEqual([200, 200, 404])
  await Promise.all([rendered.text(), cached.text(), missing.text()])

  const response = await scrape(server, authorization)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  expect(response.headers.get('cache-control')).toBe('no-store')
  const after = await response.text()
  const moved = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0)

  expect(moved('http_requests_total{route="/services",method="GET",status="200"}')).toBe(2)
  expect(moved('http_request_duration_seconds_count{route="/services",method="GET"}')).toBe(2)
  expect(moved('http_request_duration_seconds_bucket{route="/services",method="GET",le="+Inf"}')).toBe(2)
  expect(moved('http_requests_total{route="other",method="GET",status="404"}')).toBe(1)
  // The scrape before was counted; the one running now is not finished.
  expect(moved('http_requests_total{route="/metrics",method="GET",status="200"}')).toBe(1)
  expect(moved('page_cache_hits_total')).toBe(1)
  // The first /services, and the unknown page (looked up before it was found missing, not stored).
  expect(moved('page_cache_misses_total')).toBe(2)
  expect(sample(after, 'page_cache_entries')).toBeGreaterThanOrEqual(1)
  expect(sample(after, 'db_pool_total')).toBeGreaterThanOrEqual(1)
  expect(sample(after, 'db_pool_idle')).not.toBeNull()
  expect(sample(after, 'db_pool_waiting')).toBe(0)
  expect(sample(after, `jobs_queue_depth{queue="${deadQueue}"}`)).toBe(1)
  expect(sample(after, `jobs_oldest_waiting_seconds{queue="${deadQueue}"}`)).toBeGreaterThanOrEqual(59)
  expect(sample(after, 'jobs_metrics_up')).toBe(1)
  expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0)
  // No path of the 404 became a label.
  expect(after).not.toContain('no-such-page')
})
