/**
 * `npm run bench:auth`: what signed-in customers cost the production server, on loopback.
 * Starts `node server/main.ts` on a new embedded database (./data/bench-auth), signs in as the
 * demo customer, then measures one after the other: a password sign-in (argon2id verify and a
 * session row), the session lookup every signed-in request makes, the customer area and the
 * security page (server-rendered with the session). The auth rate limits are lifted for the run
 * (AUTH_RATE_LIMIT_FACTOR), as every request comes from one address.
 * Bounded: BENCH_SECONDS (default 10) per target at BENCH_CONNECTIONS (default 10).
 */
import fs from 'node:fs'
import autocannon from 'autocannon'
import { startProductionServer } from './lib/production-server.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const port = Number(process.env.BENCH_PORT ?? 4322)
const base = `http://127.0.0.1:${port}`
const dataDir = './data/bench-auth'

if (!fs.existsSync('build/server/index.js')) {
  console.error('Run `npm run build` first (npm run bench:auth does it for you).')
  process.exit(1)
}
// A new database each run: the demo password is printed only when the account is created.
fs.rmSync(dataDir, { recursive: true, force: true })
const server = await startProductionServer({
  port,
  dataDir,
  env: { APP_URL: base, AUTH_RATE_LIMIT_FACTOR: '1000' },
})

try {
  const login = /Demo customer: (\S+)\s+password: (\S+)/.exec(server.output())
  if (!login?.[1] || !login[2]) throw new Error('the demo customer login was not printed')
  const credentials = JSON.stringify({ email: login[1], password: login[2] })
  const json = { 'content-type': 'application/json', origin: base }
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: json,
    body: credentials,
  })
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  if (!cookie.includes('session_token')) throw new Error(`sign-in failed: ${signIn.status}`)

  const signedIn = { cookie, 'accept-encoding': 'gzip' }
  const targets = [
    {
      name: 'POST sign-in (argon2id verify)',
      path: '/api/auth/sign-in/email',
      method: 'POST' as const,
      headers: json,
      body: credentials,
    },
    {
      name: 'GET /api/auth/get-session',
      path: '/api/auth/get-session',
      method: 'GET' as const,
      headers: signedIn,
    },
    {
      name: 'GET /user-dashboard (signed in)',
      path: '/user-dashboard',
      method: 'GET' as const,
      headers: signedIn,
    },
    {
      name: 'GET /account/security (signed in)',
      path: '/account/security',
      method: 'GET' as const,
      headers: signedIn,
    },
  ]
  const rows: { name: string; rps: number; p50: number; p99: number; bad: number }[] = []
  for (const target of targets) {
    const options = {
      url: `${base}${target.path}`,
      method: target.method,
      headers: target.headers,
      body: target.body,
    }
    await autocannon({ ...options, connections: 2, duration: 2 })
    const result = await autocannon({ ...options, connections, duration: seconds })
    rows.push({
      name: target.name,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      bad: result.errors + result.timeouts + result.non2xx,
    })
  }
  console.log(
    `\nAuth benchmark: ${connections} connections, ${seconds} s per target, loopback, ${new Date().toISOString()}\n`,
  )
  console.log(
    'target'.padEnd(40),
    'req/s'.padStart(8),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'non-2xx'.padStart(8),
  )
  for (const row of rows) {
    console.log(
      row.name.padEnd(40),
      row.rps.toFixed(0).padStart(8),
      String(row.p50).padStart(8),
      String(row.p99).padStart(8),
      String(row.bad).padStart(8),
    )
  }
} finally {
  await server.stop()
}
