/**
 * `npm run bench:paint`: what a visitor on a slow phone sees (ADR 032's measurement, ADR 044's
 * goals). Headless Chromium with the throttling Lighthouse applies in its DevTools mode (562.5 ms
 * request latency, 1.47 Mbit/s down, CPU × 4), 375 px, Spanish, on the production build (a new
 * embedded database in ./data/bench-paint). Prints the median of BENCH_PAINT_RUNS (default 5):
 * - the first paint of `/` with an empty cache (goal ≤ 1.2 s);
 * - a link followed between two public pages after the pointer rested on it (the speculation
 *   rules prerender it): from the click to the next page's first frame (goal ≤ 100 ms), beside the
 *   same click without hovering first.
 */
import fs from 'node:fs'
import { chromium, type Page } from 'playwright'
import { CHROMIUM_FLAGS, startProductionServer } from './lib/production-server.ts'

const runs = Number(process.env.BENCH_PAINT_RUNS ?? 5)
const port = Number(process.env.BENCH_PORT ?? 4326)
const base = `http://127.0.0.1:${port}`
const dataDir = './data/bench-paint'

if (!fs.existsSync('build/server/index.js')) {
  console.error('Run `npm run build` first (npm run bench:paint does it for you).')
  process.exit(1)
}
fs.rmSync(dataDir, { recursive: true, force: true })
const server = await startProductionServer({ port, dataDir, env: { APP_URL: base, LOG_LEVEL: 'error' } })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_FLAGS,
})

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** A new page (new context: empty cache) throttled as Lighthouse's DevTools mode does. */
async function slowPhone(): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, locale: 'es' })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1.47 * 1024 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  return { page, close: () => context.close() }
}

/** Milliseconds on one clock shared by every page of the browser (the epoch). */
const now = (page: Page) => page.evaluate(() => performance.timeOrigin + performance.now())

/**
 * The next page's first paint on the shared clock, and whether its document came from the
 * hover's prefetch (a prerendered page would have painted before it was shown: then its first
 * frame after activation).
 */
const nextPaint = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ at: number; delivery: string }>((resolve) => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & {
          deliveryType?: string
          activationStart?: number
        }
        const delivery = navigation?.deliveryType || 'network'
        const done = (at: number) => resolve({ at: performance.timeOrigin + at, delivery })
        if ((navigation?.activationStart ?? 0) > 0) {
          requestAnimationFrame(() => done(performance.now()))
          return
        }
        const read = () => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]
          if (fcp) done(fcp.startTime)
          else setTimeout(read, 20)
        }
        read()
      }),
  )

async function coldFirstPaint(): Promise<number> {
  const { page, close } = await slowPhone()
  await page.goto(`${base}/?lang=es`, { waitUntil: 'load' })
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  )
  await close()
  return fcp
}

async function followLink(hoverFirst: boolean): Promise<{ ms: number; delivery: string }> {
  const { page, close } = await slowPhone()
  await page.goto(`${base}/?lang=es`, { waitUntil: 'load' })
  const link = page.getByRole('contentinfo').locator('a[href="/services"]').first()
  if (hoverFirst) {
    await link.hover()
    // The rules prerender after 200 ms of hovering; the prerender then loads like any page.
    await page.waitForTimeout(4_000)
  }
  const clicked = await now(page)
  await link.click({ noWaitAfter: true })
  await page.waitForURL(`${base}/services`)
  const painted = await nextPaint(page)
  await close()
  return { ms: painted.at - clicked, delivery: painted.delivery }
}

try {
  const cold: number[] = []
  const hovered: { ms: number; delivery: string }[] = []
  const direct: { ms: number; delivery: string }[] = []
  for (let run = 0; run < runs; run++) {
    cold.push(await coldFirstPaint())
    hovered.push(await followLink(true))
    direct.push(await followLink(false))
  }
  const ms = (value: number) => `${Math.round(value)} ms`
  console.log(`\nThrottled Chromium (562.5 ms RTT, 1.47 Mbit/s, CPU × 4), 375 px, median of ${runs}:`)
  console.log(`  / first paint, empty cache:                ${ms(median(cold))}  (goal ≤ 1200 ms)`)
  const how = (samples: { delivery: string }[]) =>
    [...new Set(samples.map((sample) => sample.delivery))].join(', ')
  console.log(
    `  / → /services after hovering the link:    ${ms(median(hovered.map((sample) => sample.ms)))}  (goal ≤ 100 ms; ${how(hovered)})`,
  )
  console.log(
    `  / → /services clicked without hovering:   ${ms(median(direct.map((sample) => sample.ms)))}  (${how(direct)})`,
  )
} finally {
  await browser.close()
  await server.stop()
}
