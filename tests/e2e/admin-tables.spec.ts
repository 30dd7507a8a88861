import type { Page } from '@playwright/test'
import pg from 'pg'
import { e2eDataDir } from '../../playwright.config.ts'
import { seedOrders } from '../../scripts/lib/orders-seed.ts'
import { seedWarehouse } from '../../scripts/lib/warehouse-seed.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'
import { expect, expectNoAxeViolations, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertContactMessage } from './outbox.ts'

// The admin panel's lists on a phone, a tablet and a desktop (375, 800, 1280 px), in both
// languages: users, the request queue, the shipments queue, storage, messages and the audit log.
// Nothing scrolls sideways and no control is cut off; below 768 px each table row is a card that
// shows every column, named; from 768 px the tables are tables. Axe at each width; with
// SCREENSHOT_DIR set, a picture of each.

const PAGES = ['users', 'requests', 'shipments', 'storage', 'messages', 'audit'] as const
const TABLES = new Set<string>(['users', 'requests', 'shipments'])

/**
 * Rows in every list, once for the run (two workers, retries: an advisory lock and a check):
 * customers with requests and items at the office (scripts/lib/orders-seed.ts, warehouse-seed.ts),
 * some long past their free storage; an audit record with a long reason.
 */
async function seedLists(staffId: string) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(e2eDataDir) })
  await client.connect()
  try {
    // Session-wide (the seed runs VACUUM, which no transaction may hold).
    await client.query('SELECT pg_advisory_lock(2727)')
    const { rowCount } = await client.query("SELECT 1 FROM users WHERE id = 'bench-user-1'")
    if (!rowCount) {
      await seedOrders(client, { customers: 8, requests: 16, staffId })
      await seedWarehouse(client as unknown as pg.Pool, { perCustomer: 1, total: 8, shipmentShare: 0.5 })
      await client.query(
        `UPDATE request_items SET received_at = now() - interval '70 days'
          WHERE received_at IS NOT NULL
            AND request_id IN (SELECT id FROM purchase_requests WHERE user_id LIKE 'bench-user-%')`,
      )
      await client.query(
        `INSERT INTO audit_log (actor_id, actor_email, kind, subject_type, subject_id, before, after)
         VALUES ($1, 'a.very.long.staff.address@example-company-domain.com', 'user.disable', 'user',
                 'bench-user-2', '{}', '{"reason":"Pagos rechazados repetidamente por el banco emisor de la tarjeta"}')`,
        [staffId],
      )
    }
    await client.query('SELECT pg_advisory_unlock(2727)')
  } finally {
    await client.end()
  }
}

/** No sideways scroll, and every control and link of the page inside the window and its box. */
async function expectNothingCutOff(page: Page, where: string) {
  const problems = await page.evaluate(() => {
    const found: string[] = []
    const overflow = document.documentElement.scrollWidth - window.innerWidth
    if (overflow > 0) found.push(`the page scrolls sideways by ${overflow}px`)
    for (const element of document.querySelectorAll<HTMLElement>(
      'main a, main button, main select, main input',
    )) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if (element.closest('.sr-only') || getComputedStyle(element).visibility === 'hidden') continue
      const name = `${element.tagName.toLowerCase()} "${(element.textContent ?? element.getAttribute('name') ?? '').trim().slice(0, 30)}"`
      if (box.left < -1 || box.right > window.innerWidth + 1) found.push(`${name} outside the window`)
      // Cut by a box that hides or scrolls what overflows it.
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX === 'visible') continue
        const frame = parent.getBoundingClientRect()
        if (box.left < frame.left - 1 || box.right > frame.right + 1) found.push(`${name} cut by its box`)
      }
    }
    return found
  })
  expect(problems, where).toEqual([])
}

test.describe.configure({ mode: 'serial' })

for (const language of ['es', 'en'] as const) {
  test(`the admin lists at 375, 800 and 1280 px: nothing cut off, cards on a phone, axe (${language})`, async ({
    page,
    signInAs,
  }) => {
    test.setTimeout(300_000)
    const admin = await signInAs({ email: uniqueEmail(`tables-${language}`), role: 'admin', language })
    await seedLists(admin.id)
    await insertContactMessage({
      name: 'María Fernanda de los Ángeles Gutiérrez',
      email: 'maria.fernanda.de.los.angeles.gutierrez@un-dominio-bastante-largo.example.com',
      message: 'Hola, quisiera saber cuánto cuesta enviar un paquete de 2 kg a Santiago de Chile.',
    })
    for (const name of PAGES) {
      for (const width of [375, 800, 1280]) {
        const where = `${name} at ${width}px (${language})`
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`/admin-dashboard/${name}?lang=${language}`)
        await waitForHydration(page)
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        await expectNothingCutOff(page, where)
        if (TABLES.has(name)) {
          const rows = page.locator('main table tbody tr')
          expect(await rows.count(), `${where}: rows`).toBeGreaterThan(0)
          // Every column of the first row shows, named on a phone (the header row is hidden there).
          const first = rows.first()
          const cells = first.locator('td')
          for (let index = 0; index < (await cells.count()); index++)
            await expect(cells.nth(index)).toBeVisible()
          const named = await first.evaluate((row) =>
            [...row.querySelectorAll('td[data-label]')].map((cell) => ({
              label: cell.getAttribute('data-label'),
              shown: getComputedStyle(cell, '::before').content,
            })),
          )
          expect(named.length, `${where}: named cells`).toBeGreaterThan(0)
          for (const { label, shown } of named) {
            if (width < 768) expect(shown, where).toContain(label ?? '')
            else expect(shown, where).toBe('none')
          }
          const header = (await page.locator('main table thead').boundingBox())?.height ?? 0
          if (width < 768) expect(header, `${where}: the header row is hidden`).toBeLessThanOrEqual(1)
          else expect(header, `${where}: the header row shows`).toBeGreaterThan(20)
        }
        await expectNoAxeViolations(page)
        const dir = process.env.SCREENSHOT_DIR
        if (dir)
          await page.screenshot({ path: `${dir}/admin-${name}-${width}-${language}.png`, fullPage: true })
      }
    }
  })
}
