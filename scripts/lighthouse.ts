/**
 * `npm run bench:lighthouse [-- /path …]`: Lighthouse (mobile, simulated throttling) with the
 * machine's Chromium on the production server, one run per page; prints the four category scores.
 * Reports (HTML) go to ./lighthouse/ (not committed).
 */
import fs from 'node:fs'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
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
try {
  for (const path of pages) {
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
    if (performance < 95 || others.some((score) => score < 100)) belowGoal += 1
    const metric = (id: string) => result.lhr.audits[id]?.displayValue ?? '?'
    rows.push([
      path,
      ...scores.map(String),
      `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
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
for (const [path, perf, a11y, best, seo, metrics] of rows) {
  console.log(
    (path ?? '').padEnd(16),
    ...[perf, a11y, best, seo].map((score) => (score ?? '').padStart(5)),
    ` ${metrics}`,
  )
}
console.log(
  `\nGoal: performance ≥ 95, the others 100. Pages below goal: ${belowGoal}. Reports in ./lighthouse/`,
)
