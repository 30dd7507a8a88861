/**
 * `npm run bench:preview`: how long reading a pasted link takes (issue 31, ADR 047), per covered
 * shop, against the local shop stand-in (tests/support/shop-stand-in/, in a process of its own so
 * its work is not counted here): the whole read (`previewLink`: the URL checks, the request, the
 * body, decoding and reading the item) and, side by side in the same run, reading the same page's
 * HTML alone (`readItem`), BENCH_PREVIEW_ROUNDS (30) times each, one after another. Prints the
 * median and the 95th percentile in milliseconds; the goal is an item shown within a
 * second of pasting. The network to a real shop (tens to hundreds of ms from Japan) is not here.
 */
import { spawn } from 'node:child_process'
import { DEFAULT_PREVIEW_HOSTS, previewLink } from '#core/link-preview/link-preview.ts'
import { readItem } from '#core/link-preview/readers.ts'
import { SHOP_PAGES } from '#tests/support/shop-stand-in/pages.ts'

const rounds = Number(process.env.BENCH_PREVIEW_ROUNDS ?? 30)
const port = Number(process.env.BENCH_PREVIEW_PORT ?? 4352)

const standIn = spawn(process.execPath, ['tests/support/shop-stand-in/server.ts', String(port)], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
await new Promise<void>((resolve, reject) => {
  standIn.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('shop stand-in on')) resolve()
  })
  standIn.on('exit', (code) => reject(new Error(`the stand-in stopped (${code})`)))
})

const policy = { allowedHosts: DEFAULT_PREVIEW_HOSTS, standIn: { host: '127.0.0.1', port } }
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}
const ms = (value: number) => value.toFixed(1)

console.log(`link preview, ${rounds} reads per shop, one after another (stand-in on port ${port})\n`)
console.log('| shop | whole read p50 | p95 | HTML read alone p50 | p95 |')
console.log('| --- | --- | --- | --- | --- |')
const all: number[] = []
try {
  for (const page of SHOP_PAGES) {
    const whole: number[] = []
    const alone: number[] = []
    for (let round = 0; round < rounds; round++) {
      let started = performance.now()
      const read = await previewLink(page.url, policy)
      whole.push(performance.now() - started)
      if (!read.ok) throw new Error(`${page.shop} did not read: ${read.reason}`)
      started = performance.now()
      readItem(page.html, page.url)
      alone.push(performance.now() - started)
    }
    all.push(...whole)
    console.log(
      `| ${page.shop} | ${ms(percentile(whole, 50))} | ${ms(percentile(whole, 95))} | ${ms(percentile(alone, 50))} | ${ms(percentile(alone, 95))} |`,
    )
  }
  // Real product pages are far larger than the stand-in's (Amazon's often 1–2 MB): the same
  // Mercari page with 1.5 MB of ordinary markup before its item, read alone.
  const first = SHOP_PAGES[0]
  if (first) {
    const filler = '<div class="row"><a href="/x">link</a><span>text 12,800円</span></div>\n'.repeat(20_000)
    const big = first.html.replace(/<body[^>]*>/, (body) => `${body}${filler}`)
    const times: number[] = []
    for (let round = 0; round < rounds; round++) {
      const started = performance.now()
      readItem(big, first.url)
      times.push(performance.now() - started)
    }
    const size = (Buffer.byteLength(big) / 1024 / 1024).toFixed(1)
    console.log(
      `| ${first.shop}, a ${size} MB page | | | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} |`,
    )
  }
  console.log(
    `\nall shops: whole read p50 ${ms(percentile(all, 50))} ms, p95 ${ms(percentile(all, 95))} ms (goal: under 1,000 ms)`,
  )
} finally {
  standIn.kill()
}
