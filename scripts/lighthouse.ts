/**
 * `npm run lighthouse [-- /path …]` (or `bench:lighthouse`): Lighthouse (mobile, simulated
 * throttling) with the machine's Chromium on the production server, one run per page; prints the
 * four category scores, FCP/LCP/TBT/CLS, and the JavaScript each page loads: as Lighthouse counts
 * it (bytes transferred for scripts during the load, locale bundles included) and as the HTML
 * names it (script and modulepreload assets, their brotli sizes in build/client).
 * Reports (HTML) go to ./lighthouse/ (not committed).
 */
import fs from 'node:fs'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { pageScripts } from './lib/page-js.ts'
import { CHROMIUM_FLAGS, startProductionServer } from './lib/production-server.ts'

const port = Number(process.env.LIGHTHOUSE_PORT ?? 4330)
const base = `http://127.0.0.1:${port}`
const pages =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : ['/', '/services', '/calculator', '/store-guide', '/contact']

const server = await startProductionServer({ port, dataDir: './data/lighthouse' })

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
})

fs.mkdirSync('lighthouse', { recursive: true })
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const rows: string[][] = []
let belowGoal = 0
// The goals: performance ≥ 99, the others 100, FCP ≤ 1.5 s, LCP ≤ 2 s, CLS 0, JS ≤ 100 KB.
const GOAL = { performance: 99, fcpMs: 1500, lcpMs: 2000, jsBytes: 100 * 1024 }
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
try {
  for (const path of pages) {
    // One request first, as any earlier visitor would make: Lighthouse then measures the page as
    // visitors get it (from the page cache), not the first render of a cold process.
    const html = await (await fetch(`${base}${path}`)).text()
    const result = await lighthouse(`${base}${path}`, {
      port: chrome.port,
      output: 'html',
      logLevel: 'error',
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
    if (
      performance < GOAL.performance ||
      others.some((score) => score < 100) ||
      value('first-contentful-paint') > GOAL.fcpMs ||
      value('largest-contentful-paint') > GOAL.lcpMs ||
      value('cumulative-layout-shift') > 0 ||
      scriptBytes > GOAL.jsBytes
    )
      belowGoal += 1
    rows.push([
      path,
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
      console.log(`  ${path} ${category} below 100: ${failing.join('; ')}`)
    }
    const name = path === '/' ? 'home' : path.replaceAll('/', '-').replace(/^-/, '')
    fs.writeFileSync(`lighthouse/${name}.html`, String(result.report))
  }
} finally {
  await chrome.kill()
  await server.stop()
}

console.log(`\nLighthouse ${new Date().toISOString()} (mobile, simulated throttling)\n`)
console.log(
  'page'.padEnd(16),
  'perf'.padStart(5),
  'a11y'.padStart(5),
  'best'.padStart(5),
  'seo'.padStart(5),
  '  metrics',
)
for (const [path, perf, a11y, best, seo, metrics, js] of rows) {
  console.log(
    (path ?? '').padEnd(16),
    ...[perf, a11y, best, seo].map((score) => (score ?? '').padStart(5)),
    ` ${metrics}; ${js}`,
  )
}
console.log(
  `\nGoal: performance ≥ ${GOAL.performance}, the others 100, FCP ≤ 1.5 s, LCP ≤ 2 s, CLS 0, JS ≤ ${kb(GOAL.jsBytes)}. ` +
    `Pages below goal: ${belowGoal}. Scores move on a loaded machine: indicative. Reports in ./lighthouse/`,
)

type NetworkItem = { resourceType?: string; transferSize?: number }
