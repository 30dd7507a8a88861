import { expect, test } from 'vitest'
import {
  bearerMatches,
  counter,
  createRequestMetrics,
  escapeLabelValue,
  gauge,
  histogram,
  normaliseRoute,
  renderMetrics,
} from './metrics.ts'

test('label values escape backslash, double quote and line feed', () => {
  expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd')
  expect(counter('x_total', 'A "count"\nof \\ things.', [{ labels: { path: '/a"b' }, value: 3 }])).toBe(
    '# HELP x_total A "count"\\nof \\\\ things.\n# TYPE x_total counter\nx_total{path="/a\\"b"} 3\n',
  )
})

test('gauges print their samples, with special values spelled as Prometheus does', () => {
  expect(
    gauge('g', 'A gauge.', [
      { value: 1.5 },
      { labels: { a: '1', b: '2' }, value: Number.POSITIVE_INFINITY },
      { labels: { a: 'x' }, value: Number.NaN },
    ]),
  ).toBe('# HELP g A gauge.\n# TYPE g gauge\ng 1.5\ng{a="1",b="2"} +Inf\ng{a="x"} NaN\n')
})

test('a histogram has cumulative buckets ending at +Inf, a sum and a count', () => {
  const text = histogram(
    'd_seconds',
    'Durations.',
    [0.1, 1],
    [{ labels: { route: '/' }, counts: [2, 1], sum: 1.75, count: 4 }],
  )
  expect(text).toBe(
    [
      '# HELP d_seconds Durations.',
      '# TYPE d_seconds histogram',
      'd_seconds_bucket{route="/",le="0.1"} 2',
      'd_seconds_bucket{route="/",le="1"} 3',
      'd_seconds_bucket{route="/",le="+Inf"} 4',
      'd_seconds_sum{route="/"} 1.75',
      'd_seconds_count{route="/"} 4',
      '',
    ].join('\n'),
  )
})

test('paths become route patterns: ids, numbers and codes are :id, assets one route', () => {
  const uuid = '0b9d2c1e-8f4a-4c3b-9e2d-1a2b3c4d5e6f'
  expect(normaliseRoute('/')).toBe('/')
  expect(normaliseRoute('/services')).toBe('/services')
  expect(normaliseRoute('/services/')).toBe('/services')
  expect(normaliseRoute(`/admin-dashboard/requests/${uuid}/arrival`)).toBe(
    '/admin-dashboard/requests/:id/arrival',
  )
  expect(normaliseRoute(`/user-dashboard/requests/${uuid}.data`)).toBe('/user-dashboard/requests/:id.data')
  expect(normaliseRoute('/_.data')).toBe('/_.data')
  expect(normaliseRoute('/admin-dashboard/users/12345')).toBe('/admin-dashboard/users/:id')
  expect(normaliseRoute('/user-dashboard/invoices/Q-2026-0042')).toBe('/user-dashboard/invoices/:id')
  expect(normaliseRoute('/store-logos/amazon-3f9a.png')).toBe('/store-logos/:id')
  expect(normaliseRoute('/admin-dashboard/import-rules/us')).toBe('/admin-dashboard/import-rules/us')
  expect(normaliseRoute('/search/%E6%97%A5')).toBe('/search/:id')
  expect(normaliseRoute('/assets/entry.client-BxY12.js')).toBe('/assets/*')
  expect(normaliseRoute('/robots.txt')).toBe('/robots.txt')
  expect(normaliseRoute('/a/b/c/d/e/f/g/h/i')).toBe('other')
})

test('requests are counted by route, method and status; 404s and routes past the cap are "other"', () => {
  const metrics = createRequestMetrics({ maxRoutes: 3 })
  metrics.observe('GET', '/?lang=en', 200, 0.003)
  metrics.observe('GET', '/', 200, 0.2)
  metrics.observe('GET', '/services', 200, 0.02)
  metrics.observe('GET', '/no-such-page', 404, 0.01)
  metrics.observe('GET', '/calculator', 200, 0.01) // a fourth route: over the cap
  metrics.observe('BREW', '/', 405, 20)
  const text = metrics.render()
  expect(text).toContain('http_requests_total{route="/",method="GET",status="200"} 2\n')
  expect(text).toContain('http_requests_total{route="/services",method="GET",status="200"} 1\n')
  expect(text).toContain('http_requests_total{route="other",method="GET",status="404"} 1\n')
  expect(text).toContain('http_requests_total{route="other",method="GET",status="200"} 1\n')
  expect(text).toContain('http_requests_total{route="/",method="other",status="405"} 1\n')
  expect(text).not.toContain('calculator')
  expect(text).toContain('http_request_duration_seconds_bucket{route="/",method="GET",le="0.005"} 1\n')
  expect(text).toContain('http_request_duration_seconds_bucket{route="/",method="GET",le="0.25"} 2\n')
  expect(text).toContain('http_request_duration_seconds_count{route="/",method="GET"} 2\n')
  expect(text).toContain('http_request_duration_seconds_sum{route="/",method="GET"} 0.203\n')
  // Slower than the last bound: only in +Inf.
  expect(text).toContain('http_request_duration_seconds_bucket{route="/",method="other",le="10"} 0\n')
  expect(text).toContain('http_request_duration_seconds_bucket{route="/",method="other",le="+Inf"} 1\n')
})

test('the exposition reads the page cache, the pool and the job queue at scrape time', async () => {
  const requests = createRequestMetrics()
  const text = await renderMetrics({
    requests,
    pageCache: { hits: 7, misses: 2, size: 3 },
    pool: { totalCount: 4, idleCount: 3, waitingCount: 0 },
    jobs: {
      query: async () => ({ rows: [{ name: 'email.send', depth: 5, oldest: 1.5 }] }),
    },
  })
  expect(text).toContain('page_cache_hits_total 7\n')
  expect(text).toContain('page_cache_misses_total 2\n')
  expect(text).toContain('page_cache_entries 3\n')
  expect(text).toContain('db_pool_total 4\n')
  expect(text).toContain('db_pool_idle 3\n')
  expect(text).toContain('db_pool_waiting 0\n')
  expect(text).toContain('jobs_queue_depth{queue="email.send"} 5\n')
  expect(text).toContain('jobs_oldest_waiting_seconds{queue="email.send"} 1.5\n')
  expect(text).toContain('jobs_metrics_up 1\n')
  expect(text).toMatch(/^process_resident_memory_bytes \d+$/m)
  expect(text).toMatch(/^process_cpu_seconds_total [\d.e-]+$/m)
  // Every family is declared once, before its samples.
  const types = text.match(/^# TYPE \S+/gm) ?? []
  expect(new Set(types).size).toBe(types.length)
})

test('a job queue that cannot be read leaves the rest of the scrape and says so', async () => {
  const text = await renderMetrics({
    requests: createRequestMetrics(),
    jobs: {
      query: async () => {
        throw new Error('connection refused')
      },
    },
  })
  expect(text).toContain('jobs_metrics_up 0\n')
  expect(text).not.toContain('jobs_queue_depth')
  expect(text).toContain('process_resident_memory_bytes')
})

test('the bearer token must match exactly', () => {
  const token = 'a-metrics-token-0123456789'
  expect(bearerMatches(`Bearer ${token}`, token)).toBe(true)
  expect(bearerMatches(`bearer ${token}`, token)).toBe(true)
  expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false)
  expect(bearerMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false)
  expect(bearerMatches(token, token)).toBe(false)
  expect(bearerMatches(undefined, token)).toBe(false)
  expect(bearerMatches('Bearer ', token)).toBe(false)
})
