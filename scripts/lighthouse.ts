/**
 * `npm run lighthouse [-- /path … customer:/path admin:/path]` (or `bench:lighthouse`):
 * Lighthouse (mobile, simulated throttling) with the machine's Chromium on the production server
 * (a fresh embedded database, so the demo logins are printed and used), one run per page; prints
 * the four category scores, FCP/LCP/TBT/CLS, and the JavaScript each page loads: as Lighthouse
 * counts it (bytes transferred for scripts during the load, locale bundles included) and as the
 * HTML names it (script and modulepreload assets, their brotli sizes in build/client).
 * `customer:` and `admin:` pages are measured signed in as the demo customer or admin.
 * Reports (HTML) go to ./lighthouse/ (not committed).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { pageScripts } from './lib/page-js.ts'
import { CHROMIUM_FLAGS, startProductionServer } from './lib/production-server.ts'

const port = Number(process.env.LIGHTHOUSE_PORT ?? 4330)
const base = `http://127.0.0.1:${port}`
const PUBLIC_PAGES = ['/', '/services', '/calculator', '/store-guide', '/contact']
const pages =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : [...PUBLIC_PAGES, '/auth', 'customer:/user-dashboard', 'admin:/admin-dashboard']

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lighthouse-'))
const server = await startProductionServer({ port, dataDir })

/** The demo account's session cookie, signed in through the app's own sign-in endpoint. */
async function sessionCookie(role: 'customer' | 'admin'): Promise<string> {
  const appUrl = /Storefront running at (\S+)/.exec(server.output())?.[1] ?? base
  const login = new RegExp(`Demo ${role}: (\\S+)\\s+password: (\\S+)`).exec(server.output())
  if (!login) throw new Error(`no demo ${role} login in the server's output`)
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    // The app's own origin (APP_URL, printed on start): the sign-in endpoint refuses any other.
    headers: { 'Content-Type': 'application/json', Origin: new URL(appUrl).origin },
    body: JSON.stringify({ email: login[1], password: login[2] }),
  })
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .find((pair) => pair?.startsWith('better-auth.session_token='))
  if (!response.ok || !cookie) throw new Error(`demo ${role} sign-in failed: ${response.status}`)
  return cookie
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
})

fs.mkdirSync('lighthouse', { recursive: true })
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const rows: string[][] = []
let belowGoal = 0
// Issue 29's goals (ADR 044): the content pages performance 100 and JS ≤ 15 KB, /calculator and
// /contact ≥ 99 and JS ≤ 70 KB; every public page FCP ≤ 1.0 s, LCP ≤ 1.2 s, TBT ≤ 50 ms; /auth
// and signed-in pages performance ≥ 95; everywhere the other three 100 and CLS 0.
const INTERACTIVE_PAGES = ['/calculator', '/contact']
const GOAL = {
  content: { performance: 100, jsBytes: 15 * 1024 },
  interactive: { performance: 99, jsBytes: 70 * 1024 },
  fcpMs: 1000,
  lcpMs: 1200,
  tbtMs: 50,
  otherPerformance: 95,
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
try {
  for (const page of pages) {
    const [role, path = page] = /^(customer|admin):/.test(page) ? page.split(/:(.*)/s) : [undefined, page]
    const isPublic = PUBLIC_PAGES.includes(path) && !role
    const headers: Record<string, string> = role
      ? { Cookie: await sessionCookie(role as 'customer' | 'admin') }
      : {}
    // One request first, as any earlier visitor would make: Lighthouse then measures the page as
    // visitors get it (from the page cache), not the first render of a cold process.
    const html = await (await fetch(`${base}${path}`, { headers })).text()
    const result = await lighthouse(`${base}${path}`, {
      port: chrome.port,
      output: 'html',
      logLevel: 'error',
      extraHeaders: headers,
    })
    if (!result) throw new Error(`no Lighthouse result for ${path}`)
    const scores = categories.map((category) =>
      Math.round((result.lhr.categories[category]?.score ?? 0) * 100),
    )
    const [performance = 0, ...others] = scores
    const metric = (id: string) => result.lhr.audits[id]?.displayValue ?? '?'
    const value = (id: string) => result.lhr.audits[id]?.numericValue ?? Number.POSITIVE_INFINITY
    const requests = (result.lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)
      ?.items
    const scriptBytes = (requests ?? [])
      .filter((item) => item.resourceType === 'Script')
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0)
    const htmlBytes = pageScripts(html).reduce((sum, script) => sum + script.bytes, 0)
    const pageGoal = INTERACTIVE_PAGES.includes(path) ? GOAL.interactive : GOAL.content
    const belowPublicGoal =
      performance < pageGoal.performance ||
      value('first-contentful-paint') > GOAL.fcpMs ||
      value('largest-contentful-paint') > GOAL.lcpMs ||
      value('total-blocking-time') > GOAL.tbtMs ||
      scriptBytes > pageGoal.jsBytes
    if (
      (isPublic ? belowPublicGoal : performance < GOAL.otherPerformance) ||
      others.some((score) => score < 100) ||
      value('cumulative-layout-shift') > 0
    )
      belowGoal += 1
    rows.push([
      page,
      ...scores.map(String),
      `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
      `JS ${kb(scriptBytes)} transferred (${kb(htmlBytes)} named in the HTML)`,
    ])
    for (const category of categories) {
      const entry = result.lhr.categories[category]
      if (!entry || (entry.score ?? 0) >= 1 || category === 'performance') continue
      const failing = entry.auditRefs
        .filter((ref) => ref.weight > 0 && (result.lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${ref.id}: ${result.lhr.audits[ref.id]?.title}`)
      console.log(`  ${page} ${category} below 100: ${failing.join('; ')}`)
    }
    const name = `${role ? `${role}-` : ''}${path === '/' ? 'home' : path.replaceAll('/', '-').replace(/^-/, '')}`
    fs.writeFileSync(`lighthouse/${name}.html`, String(result.report))
  }
} finally {
  await chrome.kill()
  await server.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

console.log(`\nLighthouse ${new Date().toISOString()} (mobile, simulated throttling)\n`)
console.log(
  'page'.padEnd(24),
  'perf'.padStart(5),
  'a11y'.padStart(5),
  'best'.padStart(5),
  'seo'.padStart(5),
  '  metrics',
)
for (const [path, perf, a11y, best, seo, metrics, js] of rows) {
  console.log(
    (path ?? '').padEnd(24),
    ...[perf, a11y, best, seo].map((score) => (score ?? '').padStart(5)),
    ` ${metrics}; ${js}`,
  )
}
console.log(
  `\nGoals: content pages performance ${GOAL.content.performance} and JS ≤ ${kb(GOAL.content.jsBytes)}, ` +
    `${INTERACTIVE_PAGES.join(' and ')} ≥ ${GOAL.interactive.performance} and JS ≤ ${kb(GOAL.interactive.jsBytes)}; ` +
    `public pages FCP ≤ 1.0 s, LCP ≤ 1.2 s, TBT ≤ ${GOAL.tbtMs} ms; ` +
    `other pages performance ≥ ${GOAL.otherPerformance}; all: the other three 100, CLS 0. ` +
    `Pages below goal: ${belowGoal}. Scores move on a loaded machine: indicative. Reports in ./lighthouse/`,
)

type NetworkItem = { resourceType?: string; transferSize?: number }
