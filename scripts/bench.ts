/**
 * `npm run bench`: throughput and latency of the production server on loopback, beside the limit
 * of this machine: a bare Node `http` server, in its own process, answering the home page's
 * gzip bytes from memory. Starts `node server/main.ts` (production build, embedded PostgreSQL in
 * ./data/bench), then measures, one after the other: the limit, a hashed static asset, the home
 * page in Spanish, /healthz. Bounded: BENCH_SECONDS (default 10) per target at BENCH_CONNECTIONS
 * (default 50).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
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
let stopBare = () => {}

try {
  const home = await fetch(`${base}/`, { headers: { 'accept-encoding': 'gzip' } })
  const html = await home.text()
  const asset = /<link[^>]+rel="stylesheet"[^>]+href="(\/assets\/[^"]+)"|href="(\/assets\/[^"]+\.css)"/.exec(
    html,
  )
  const assetPath = asset?.[1] ?? asset?.[2]
  if (!assetPath) throw new Error('no hashed stylesheet found on the home page')

  // The limit: the same page bytes, gzip-compressed once, from a bare server in another process.
  const limitPort = port + 1
  const bodyFile = path.join(os.tmpdir(), `bench-home-${process.pid}.gz`)
  fs.writeFileSync(bodyFile, zlib.gzipSync(html))
  const bare = spawn(
    process.execPath,
    [
      '-e',
      `const body = require('fs').readFileSync(${JSON.stringify(bodyFile)});
       require('http').createServer((req, res) => {
         res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length })
         res.end(body)
       }).listen(${limitPort}, '127.0.0.1', () => console.log('ready'))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise((resolve) => bare.stdout?.once('data', resolve))
  stopBare = () => {
    bare.kill()
    fs.rmSync(bodyFile, { force: true })
  }

  const headers = { 'accept-encoding': 'gzip' }
  const targets = [
    { name: 'limit: bare Node server, same bytes', path: '/', url: `http://127.0.0.1:${limitPort}` },
    { name: `static asset ${assetPath}`, path: assetPath },
    { name: 'home page (es, anonymous)', path: '/' },
    { name: '/healthz', path: '/healthz' },
  ]
  const results: { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number }[] =
    []
  for (const target of targets) {
    // Warm-up fills the page cache and JIT; it is not measured.
    const url = `${'url' in target ? target.url : base}${target.path}`
    await autocannon({ url, connections: 10, duration: 2, headers })
    const result = await autocannon({ url, connections, duration: seconds, headers })
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
    'of limit'.padStart(9),
  )
  const limitRps = results[0]?.rps ?? 0
  for (const row of results) {
    console.log(
      row.name.padEnd(48),
      row.rps.toFixed(0).padStart(9),
      String(row.p50).padStart(8),
      String(row.p99).padStart(8),
      String(row.errors + row.non2xx).padStart(7),
      `${((row.rps / limitRps) * 100).toFixed(0)} %`.padStart(9),
    )
  }
  const [, asset0, homeRow] = results
  if (asset0 && homeRow) {
    console.log(
      `\nstatic: ${((asset0.rps / limitRps) * 100).toFixed(0)} % of the limit (goal ≥ 50 %); ` +
        `home: ${((homeRow.rps / limitRps) * 100).toFixed(0)} % of the limit (goal ≥ 50 %), p99 ${homeRow.p99} ms (goal < 15 ms)`,
    )
  }
} finally {
  stopBare()
  await server.stop()
}
