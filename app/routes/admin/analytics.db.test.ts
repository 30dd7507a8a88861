import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import {
  callFileRoute,
  callRoute,
  createTestServices,
  pageRequest,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { seedAsInstalled } from '#tests/support/seeded.ts'
import * as analytics from './analytics.tsx'
import * as csv from './analytics-csv.ts'
import * as adminLayout from './layout.tsx'
import { middleware as adminMiddleware } from './layout.tsx'

// The analytics page and its CSV through the admin branch's middleware, for every role; a bad
// period; the CSV's headers, numbers and a hostile shop name defused.

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const people = {
    ana: await signedInCaller(pool, { email: 'ana@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const page = (search: string, cookie?: string) =>
    callRoute(
      services,
      adminMiddleware,
      pageRequest(`/admin-dashboard/analytics${search}`, { cookie }),
      (args) => analytics.loader(args as never),
      { context: { language: 'en' } },
    )
  // As a download link asks for it (a browser's navigation: `text/html` acceptable), or as a script.
  const file = (search: string, cookie?: string, accept = 'text/html,*/*;q=0.8') => {
    const request = pageRequest(`/admin-dashboard/analytics.csv${search}`, { cookie })
    request.headers.set('accept', accept)
    return callFileRoute(services, adminLayout, csv, request, { context: { language: 'en' } })
  }
  return { pool, people, page, file }
}

test('anonymous visitors get the login guard; customers and moderators the admin guard; for the page and the CSV', async () => {
  const { people, page, file } = await setup()
  expect(await page('')).toMatchObject({ status: 401, data: { guard: 'login' } })
  // A browser gets the guard page (the layout's loader throws it); a script a few words.
  expect(await file('')).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await file('', undefined, '*/*')).toMatchObject({ status: 401, data: 'Please sign in to continue.' })
  for (const who of [people.ana, people.moderator]) {
    expect(await page('', who.cookie)).toMatchObject({ status: 403, data: { guard: 'admin' } })
    expect(await file('', who.cookie)).toMatchObject({ status: 403, data: { guard: 'admin' } })
    expect(await file('', who.cookie, 'application/json')).toMatchObject({
      status: 403,
      data: { error: { code: 'forbidden' } },
    })
  }
})

test('an admin reads the figures of a period in words; a bad period is a 400 with its message', async () => {
  const { pool, people, page } = await setup()
  await insertQuotedRequest(pool, { userId: people.ana.id, at: new Date('2026-03-10T00:00:00Z') })
  const march = await page('?from=2026-03-01&to=2026-03-31', people.admin.cookie)
  expect(march).toMatchObject({
    status: 200,
    data: {
      problem: null,
      period: { preset: 'custom', fromDay: '2026-03-01', toDay: '2026-03-31', bucket: 'day' },
      view: {
        requests: '1',
        quotesIssued: '1',
        paidShare: '0%',
        total: 'JPY\u00a00',
        topShops: [{ host: 'jp.mercari.com' }],
      },
    },
  })
  for (const search of [
    '?preset=custom&from=2026-02-30&to=2026-03-01',
    '?from=2026-05-01&to=2026-04-01',
    '?from=<script>&to=x',
  ]) {
    expect(await page(search, people.admin.cookie)).toMatchObject({
      status: 400,
      data: { problem: 'errors.reasons.periodInvalid', view: null },
    })
  }
  expect(await page('?from=2019-01-01&to=2025-12-31', people.admin.cookie)).toMatchObject({
    status: 400,
    data: { problem: 'errors.reasons.periodTooLong' },
  })
})

test('the CSV: its headers, whole yen, and a shop name that would be a formula is defused', async () => {
  const { pool, people, file } = await setup()
  const quoted = await insertQuotedRequest(pool, {
    userId: people.ana.id,
    at: new Date('2026-03-10T00:00:00Z'),
  })
  await pool.query(`UPDATE invoices SET status = 'paid', paid_at = '2026-03-11T00:00:00Z' WHERE id = $1`, [
    quoted.invoiceId,
  ])
  await pool.query(
    `UPDATE request_items SET shop_host = '=HYPERLINK("http://evil.example")' WHERE request_id = $1`,
    [quoted.requestId],
  )
  const answer = await file('?from=2026-03-01&to=2026-03-31', people.admin.cookie)
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  expect(answer.headers.get('content-disposition')).toBe(
    'attachment; filename="analytics-2026-03-01-2026-03-31.csv"',
  )
  const text = String(answer.data)
  // Net of refunds, with what the quotes charged and the refunds beside it (docs/decisions/034).
  expect(text).toContain(
    'Revenue before refunds (yen),7400\r\nRefunds of what quotes charged (yen),0\r\nNet revenue,7400\r\n',
  )
  expect(text).toContain('Requests received,1\r\n')
  expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")",1\r\n`)
  expect(text).toContain('2026-03-11,0,7400\r\n')
  expect((await file('?from=nope&to=2026-01-01', people.admin.cookie)).status).toBe(400)
})
