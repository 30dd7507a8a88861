/**
 * `npm run bench`: throughput and latency of the production server on loopback.
 * Starts `node server/main.ts` (production build, embedded PostgreSQL in ./data/bench), then
 * measures, one after the other: a hashed static asset, the home page in Spanish, /healthz.
 * Bounded: BENCH_SECONDS (default 10) per target at BENCH_CONNECTIONS (default 50).
 */
import fs from 'node:fs'
import autocannon from 'autocannon'
import { startProductionServer } from './lib/production-server.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const port = Number(process.env.BENCH_PORT ?? 4320)
const base = `http://127.0.0.1:${port}`

if (!fs.existsSync('build/server/index.js')) {
  console.error('Run `npm run build` first (npm run bench does it for you).')
  process.exit(1)
}

const server = await startProductionServer({ port, dataDir: './data/bench' })

try {
  const home = await fetch(`${base}/`, { headers: { 'accept-encoding': 'gzip' } })
  const html = await home.text()
  const asset = /<link[^>]+rel="stylesheet"[^>]+href="(\/assets\/[^"]+)"|href="(\/assets\/[^"]+\.css)"/.exec(
    html,
  )
  const assetPath = asset?.[1] ?? asset?.[2]
  if (!assetPath) throw new Error('no hashed stylesheet found on the home page')

  const headers = { 'accept-encoding': 'gzip' }
  const targets = [
    { name: `static asset ${assetPath}`, path: assetPath },
    { name: 'home page (es, anonymous)', path: '/' },
    { name: '/healthz', path: '/healthz' },
  ]
  const results: { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number }[] =
    []
  for (const target of targets) {
    // Warm-up fills the page cache and JIT; it is not measured.
    await autocannon({ url: `${base}${target.path}`, connections: 10, duration: 2, headers })
    const result = await autocannon({ url: `${base}${target.path}`, connections, duration: seconds, headers })
    results.push({
      name: target.name,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    })
  }

  console.log(
    `\nBenchmark: ${connections} connections, ${seconds} s per target, gzip, loopback, ${new Date().toISOString()}\n`,
  )
  console.log(
    'target'.padEnd(48),
    'req/s'.padStart(9),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'errors'.padStart(7),
  )
  for (const row of results) {
    console.log(
      row.name.padEnd(48),
      row.rps.toFixed(0).padStart(9),
      String(row.p50).padStart(8),
      String(row.p99).padStart(8),
      String(row.errors + row.non2xx).padStart(7),
    )
  }
  const [asset0, homeRow] = results
  if (asset0 && homeRow) {
    const ratio = homeRow.rps / asset0.rps
    console.log(
      `\nhome / static throughput: ${(ratio * 100).toFixed(0)} % (goal ≥ 50 %); home p99 ${homeRow.p99} ms (goal < 50 ms)`,
    )
  }
} finally {
  await server.stop()
}
