import type pg from 'pg'
import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { waitForLockWait } from '#tests/support/locks.ts'

// The top shops' daily roll-up (request_shop_days, kept by triggers from migration 0019) against
// the requests themselves, after every kind of change: items added in one statement and in
// several, a link changed, an item, a request and an account deleted, and two submissions on
// one day in transactions that overlap.

/** What the roll-up must hold: computed from the rows, as the analytics did before it. */
const LIVE = `
  select (pr.submitted_at at time zone 'Asia/Tokyo')::date::text as day, ri.shop_host,
         max(ri.store_id) as store_id, count(distinct ri.request_id)::int as requests
    from purchase_requests pr join request_items ri on ri.request_id = pr.id
   group by 1, 2 order by 1, 2`
const ROLLED = `select day::text, shop_host, store_id, requests from request_shop_days order by 1, 2`

async function setup() {
  const { pool } = await createTestDatabase()
  const ana = await insertPasswordAccount(pool, { email: 'ana@example.com', name: 'Ana' })
  const leo = await insertPasswordAccount(pool, { email: 'leo@example.com', name: 'Leo' })
  const store = (
    await pool.query(
      `insert into stores (slug, name, url, description_es, description_en, logo_text, logo_color)
       values ('mercari', 'Mercari', 'https://jp.mercari.com', 'es', 'en', 'M', '#b91c1c') returning id`,
    )
  ).rows[0].id as number
  const request = async (
    userId: string,
    at: string,
    hosts: string[],
    client: pg.Pool | pg.PoolClient = pool,
  ) => {
    const id = (
      await client.query(
        `insert into purchase_requests (user_id, locale, submitted_at) values ($1, 'es', $2) returning id`,
        [userId, at],
      )
    ).rows[0].id as string
    // All of a request's items in one statement, as the request service writes them.
    await client.query(
      `insert into request_items (request_id, position, url, shop_host, store_id)
       select $1, n, 'https://' || host || '/item/' || n, host, case when host = 'jp.mercari.com' then $3::int end
         from unnest($2::text[]) with ordinality as t(host, n)`,
      [id, hosts, store],
    )
    return id
  }
  const expectInStep = async () => {
    const live = (await pool.query(LIVE)).rows
    expect((await pool.query(ROLLED)).rows).toEqual(live)
    return live
  }
  return { pool, ana, leo, store, request, expectInStep }
}

test('requests on both sides of a Japan midnight, two links to one shop counted once', async () => {
  const { ana, leo, store, request, expectInStep } = await setup()
  // 14:59 UTC is 23:59 in Japan; 15:00 UTC is the next Japan day.
  await request(ana.id, '2026-03-01T14:59:00Z', ['jp.mercari.com', 'jp.mercari.com', 'amazon.co.jp'])
  await request(leo.id, '2026-03-01T15:00:00Z', ['jp.mercari.com'])
  await request(leo.id, '2026-03-01T03:00:00Z', ['jp.mercari.com', 'item.rakuten.co.jp'])
  expect(await expectInStep()).toEqual([
    { day: '2026-03-01', shop_host: 'amazon.co.jp', store_id: null, requests: 1 },
    { day: '2026-03-01', shop_host: 'item.rakuten.co.jp', store_id: null, requests: 1 },
    { day: '2026-03-01', shop_host: 'jp.mercari.com', store_id: store, requests: 2 },
    { day: '2026-03-02', shop_host: 'jp.mercari.com', store_id: store, requests: 1 },
  ])
})

test('a link changed, an item added later, an item, a request and an account deleted', async () => {
  const { pool, ana, leo, request, expectInStep } = await setup()
  const first = await request(ana.id, '2026-04-10T01:00:00Z', ['jp.mercari.com', 'amazon.co.jp'])
  await request(leo.id, '2026-04-10T02:00:00Z', ['amazon.co.jp'])
  await request(leo.id, '2026-04-11T02:00:00Z', ['www.suruga-ya.jp'])
  await expectInStep()
  await pool.query(
    `update request_items set shop_host = 'www.suruga-ya.jp' where request_id = $1 and position = 2`,
    [first],
  )
  await expectInStep()
  await pool.query(
    `insert into request_items (request_id, position, url, shop_host) values ($1, 3, 'https://amazon.co.jp/x', 'amazon.co.jp')`,
    [first],
  )
  await expectInStep()
  await pool.query(`delete from request_items where request_id = $1 and position = 1`, [first])
  await expectInStep()
  await pool.query(`delete from purchase_requests where id = $1`, [first])
  expect(await expectInStep()).toHaveLength(2)
  await pool.query(`delete from users where id = $1`, [leo.id])
  expect(await expectInStep()).toEqual([])
})

test('two submissions on one day in overlapping transactions both count', async () => {
  const { pool, ana, leo, request, expectInStep } = await setup()
  const one = await pool.connect()
  const two = await pool.connect()
  try {
    await one.query('begin')
    await two.query('begin')
    await request(ana.id, '2026-05-05T05:00:00Z', ['jp.mercari.com'], one)
    // Waits for the first transaction's lock on the day…
    const twoPid: number = (await two.query('SELECT pg_backend_pid() AS pid')).rows[0].pid
    const second = request(leo.id, '2026-05-05T06:00:00Z', ['jp.mercari.com'], two)
    await waitForLockWait(pool, { pid: twoPid })
    await one.query('commit')
    // …then recomputes the day with the first one's request in it.
    await second
    await two.query('commit')
  } finally {
    one.release()
    two.release()
  }
  expect(await expectInStep()).toEqual([
    expect.objectContaining({ day: '2026-05-05', shop_host: 'jp.mercari.com', requests: 2 }),
  ])
})
