import { expect, test } from 'vitest'
import { formatMoney } from '#core/money/money.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { callRoute, createTestServices, pageRequest, signedInCaller } from '#tests/support/route-context.ts'
import { middleware } from './layout.tsx'
import { loader as historyLoader } from './requests.tsx'

// "My requests" with each request's amounts (the spec's history item: estimated cost, service
// fee, total; docs/decisions/036), in the page's language.

const yen = (amount: number, language: 'es' | 'en') => formatMoney(amount, 'JPY', language)

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string) => signedInCaller(pool, { email })
  const history = (cookie?: string, language: 'es' | 'en' = 'en') =>
    callRoute(
      services,
      middleware,
      pageRequest('/user-dashboard/requests', { cookie }),
      (args) => historyLoader(args as never),
      { context: { language } },
    )
  return { pool, signedIn, history }
}

test('my requests show each one’s amounts, the way to pay an open quote, or plainly that there are none yet', async () => {
  const { pool, signedIn, history } = await setup()
  const ana = await signedIn('ana@example.com')
  // A request not quoted yet, one rejected, one quoted (open), one paid.
  await pool.query(
    `INSERT INTO purchase_requests (user_id, locale, submitted_at) VALUES ($1, 'es', now() - interval '4 days')`,
    [ana.id],
  )
  await pool.query(
    `INSERT INTO purchase_requests (user_id, locale, status, submitted_at) VALUES ($1, 'es', 'rejected', now() - interval '3 days')`,
    [ana.id],
  )
  const open = await insertQuotedRequest(pool, {
    userId: ana.id,
    items: [{ unitPriceJpy: 12_000, quantity: 1, domesticShippingJpy: 800 }],
    at: new Date(Date.now() - 2 * 86_400_000),
  })
  const paid = await insertQuotedRequest(pool, { userId: ana.id, items: [{ unitPriceJpy: 2000 }] })
  await pool.query(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = $1`, [paid.invoiceId])
  await pool.query(`UPDATE purchase_requests SET status = 'paid' WHERE id = $1`, [paid.requestId])

  const page = await history(ana.cookie)
  expect(page.status).toBe(200)
  type Row = { id: string; status: string; quote: Record<string, unknown> | null }
  const rows = (page.data as { requests: Row[] }).requests
  expect(rows.map((row) => row.status)).toEqual(['paid', 'quoted', 'rejected', 'submitted'])
  // 12,000 + fee 500, tax 10 % of 12,500 = 1,250, shipping 800: 14,550.
  expect(rows[1]?.quote).toEqual({
    status: 'open',
    items: yen(12_000, 'en'),
    domesticShipping: yen(800, 'en'),
    serviceFee: yen(500, 'en'),
    tax: yen(1_250, 'en'),
    total: yen(14_550, 'en'),
    dueLabel: expect.any(String),
    toPay: true,
    beingChecked: false,
  })
  expect(rows[1]?.id).toBe(open.requestId)
  expect(rows[0]?.quote).toMatchObject({
    status: 'paid',
    total: yen(2_750, 'en'),
    domesticShipping: null,
    toPay: false,
  })
  expect(rows[2]?.quote).toBeNull()
  expect(rows[3]?.quote).toBeNull()
  // In Spanish, written as Spanish writes yen.
  const spanish = (await history(ana.cookie, 'es')).data as { requests: Row[] }
  expect(spanish.requests[1]?.quote).toMatchObject({ total: expect.stringMatching(/14\.550/) })
  // Someone else's requests are not in it.
  const bruno = await signedIn('bruno@example.com')
  expect(((await history(bruno.cookie)).data as { requests: Row[] }).requests).toEqual([])
})

test('a quote being checked (a held payment, a transfer reported) has nothing to pay; an expired one shows its total as expired', async () => {
  const { pool, signedIn, history } = await setup()
  const ana = await signedIn('ana@example.com')
  const held = await insertQuotedRequest(pool, { userId: ana.id })
  await pool.query(
    `INSERT INTO payments (invoice_id, provider, provider_ref, status, requested_jpy, amount, currency)
     VALUES ($1, 'paypal', 'ORDER-1', 'held', $2, 50, 'USD')`,
    [held.invoiceId, held.totalJpy],
  )
  // The customer said they paid by transfer: nothing to pay while we check (ADR 036).
  const reported = await insertQuotedRequest(pool, { userId: ana.id })
  await pool.query(`INSERT INTO transfer_notices (invoice_id, user_id) VALUES ($1, $2)`, [
    reported.invoiceId,
    ana.id,
  ])
  const expired = await insertQuotedRequest(pool, { userId: ana.id, at: new Date(Date.now() - 86_400_000) })
  await pool.query(`UPDATE invoices SET status = 'expired' WHERE id = $1`, [expired.invoiceId])
  await pool.query(`UPDATE purchase_requests SET status = 'expired' WHERE id = $1`, [expired.requestId])
  // A revised quote (voided, being priced again): no amounts until the new one.
  const revised = await insertQuotedRequest(pool, {
    userId: ana.id,
    at: new Date(Date.now() - 2 * 86_400_000),
  })
  await pool.query(`UPDATE invoices SET status = 'void', voided_at = now() WHERE id = $1`, [
    revised.invoiceId,
  ])
  await pool.query(`UPDATE purchase_requests SET status = 'submitted' WHERE id = $1`, [revised.requestId])
  type Row = { id: string; quote: Record<string, unknown> | null }
  const rows = ((await history(ana.cookie)).data as { requests: Row[] }).requests
  const of = (id: string) => rows.find((row) => row.id === id)?.quote
  expect(of(held.requestId)).toMatchObject({ status: 'open', toPay: false, beingChecked: true })
  expect(of(reported.requestId)).toMatchObject({ status: 'open', toPay: false, beingChecked: true })
  expect(of(expired.requestId)).toMatchObject({ status: 'expired', toPay: false, beingChecked: false })
  expect(of(revised.requestId)).toBeNull()
})
