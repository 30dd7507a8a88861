/**
 * `node scripts/screenshots.ts [baseUrl]`: full-page screenshots of every public page at 375 px and
 * 1280 px, in Spanish and English, into ./screenshots (not committed), to look at.
 */
import fs from 'node:fs'
import { chromium } from '@playwright/test'
import { CHROMIUM_FLAGS } from './lib/production-server.ts'

const base = process.argv[2] ?? 'http://127.0.0.1:3000'
const pages = ['/', '/services', '/calculator', '/store-guide', '/contact', '/not-a-page']
fs.mkdirSync('screenshots', { recursive: true })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_FLAGS,
})
for (const width of [375, 1280]) {
  for (const language of ['es', 'en']) {
    const page = await browser.newPage({ viewport: { width, height: width === 375 ? 740 : 900 } })
    for (const path of pages) {
      await page.goto(`${base}${path}?lang=${language}`)
      const name = `${width}-${language}-${path === '/' ? 'home' : path.slice(1)}`
      await page.screenshot({ path: `screenshots/${name}.png`, fullPage: true })
    }
    if (width === 375) {
      await page.goto(`${base}/?lang=${language}`)
      await page.getByRole('banner').locator('summary').click()
      await page.screenshot({ path: `screenshots/${width}-${language}-menu-open.png` })
    }
    await page.close()
  }
}
await browser.close()
console.log(`screenshots written to ./screenshots for ${base}`)
