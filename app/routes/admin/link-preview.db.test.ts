import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { SHOP_SAMPLES } from '#tests/support/shop-stand-in/pages.ts'
import { type ShopStandIn, startShopStandIn } from '#tests/support/shop-stand-in/server.ts'
import { action as dashboardAction } from '../customer/dashboard.tsx'
import { middleware as customerMiddleware } from '../customer/layout.tsx'
import { action as requestAction, loader as requestLoader } from './request.tsx'
import { middleware as staffMiddleware } from './staff-layout.tsx'

// Issue 31 on the staff's request page: a request keeps what its links read (from the shared
// cache, never from the form), staff see it, and "read the page again" is for staff only, on an
// item of that request; a page that no longer reads leaves the item as it was.
let shops: ShopStandIn
beforeAll(async () => {
  shops = await startShopStandIn()
})
afterAll(async () => {
  await shops.close()
})

const sample = SHOP_SAMPLES[0]
if (!sample) throw new Error('no sample')

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool, {
    linkPreview: { standIn: { host: '127.0.0.1', port: shops.port } },
  })
  const run = (
    middleware: Parameters<typeof callRoute>[1],
    request: Request,
    handler: (args: never) => unknown,
    params: Record<string, string> = {},
  ) => callRoute(services, middleware, request, handler as never, { params, context: { language: 'en' } })
  const people = {
    ana: await signedInCaller(pool, { email: 'ana@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const send = async (urls: string[]) => {
    const fields: Record<string, string> = { form: 'request' }
    urls.forEach((url, index) => {
      fields[`items[${index}].url`] = url
      // A price the form might carry is never read: the server keeps only what it read itself.
      fields[`items[${index}].price`] = '1'
    })
    const sent = await run(
      customerMiddleware,
      formPost('/user-dashboard', fields, { cookie: people.ana.cookie }),
      (args) => dashboardAction(args),
    )
    const id = (sent.headers.get('location') ?? '').split('/')[3]?.split('?')[0] ?? ''
    const { rows } = await pool.query<{ id: string; preview: { title: string; priceYen: number } | null }>(
      'SELECT id, preview FROM request_items WHERE request_id = $1 ORDER BY position',
      [id],
    )
    return { id, items: rows }
  }
  const readAgain = (id: string, itemId: string, cookie?: string) =>
    run(
      staffMiddleware,
      formPost(`/admin-dashboard/requests/${id}`, { intent: 'read_link', itemId }, { cookie }),
      (args) => requestAction(args),
      { id },
    )
  const view = (id: string, cookie?: string) =>
    run(
      staffMiddleware,
      pageRequest(`/admin-dashboard/requests/${id}`, { cookie }),
      (args) => requestLoader(args),
      {
        id,
      },
    )
  return { services, pool, people, send, readAgain, view }
}

test('a request keeps what its links read within the hour; a link not read keeps nothing; staff see it', async () => {
  const { services, people, send, view } = await setup()
  const read = await services.linkPreview.preview(sample.url, {
    accountId: null,
    clientKey: 'ip:203.0.113.7',
  })
  expect(read.status).toBe('read')
  const { id, items } = await send([sample.url, 'https://jp.mercari.com/item/m-never-read'])
  expect(items[0]?.preview).toMatchObject({ title: sample.title, priceYen: sample.priceYen })
  expect(items[1]?.preview).toBeNull()

  const page = (await view(id, people.moderator.cookie)).data as {
    items: { preview: { title: string; readAt: string } | null }[]
  }
  expect(page.items[0]?.preview?.title).toBe(sample.title)
  expect(Date.parse(page.items[0]?.preview?.readAt ?? '')).not.toBeNaN()
  expect(page.items[1]?.preview).toBeNull()
})

test('read again: the login guard for visitors, the admin guard for customers; staff read the page now', async () => {
  const { people, send, readAgain, pool } = await setup()
  const { id, items } = await send([sample.url])
  const itemId = items[0]?.id ?? ''
  expect(items[0]?.preview).toBeNull()

  expect((await readAgain(id, itemId)).status).toBe(401)
  expect((await readAgain(id, itemId, people.ana.cookie)).status).toBe(403)
  const before = shops.requests()
  for (const staff of [people.moderator, people.admin]) {
    const answer = await readAgain(id, itemId, staff.cookie)
    expect(redirectOf(answer)).toEqual({
      location: `/admin-dashboard/requests/${id}`,
      notice: { name: 'linkReadAgain' },
    })
  }
  // Past the cache: each read fetched the page.
  expect(shops.requests() - before).toBe(2)
  const { rows } = await pool.query('SELECT preview FROM request_items WHERE id = $1', [itemId])
  expect(rows[0]?.preview).toMatchObject({ title: sample.title, priceYen: sample.priceYen })
})

test('read again: an item of another request, or no item, is 404; a page that no longer reads keeps the item', async () => {
  const { people, send, readAgain, pool } = await setup()
  const first = await send([sample.url])
  const other = await send(['https://jp.mercari.com/trap/changed'])
  const firstItem = first.items[0]?.id ?? ''
  const otherItem = other.items[0]?.id ?? ''
  for (const itemId of [otherItem, '', 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
    expect((await readAgain(first.id, itemId, people.admin.cookie)).status, itemId).toBe(404)
  }
  await readAgain(first.id, firstItem, people.admin.cookie)
  // The shop changed its page: nothing read, the item keeps nothing new, the staff are told.
  const changed = await readAgain(other.id, otherItem, people.admin.cookie)
  expect(redirectOf(changed).notice).toEqual({ name: 'linkNotRead' })
  const { rows } = await pool.query('SELECT preview FROM request_items WHERE id = $1', [otherItem])
  expect(rows[0]?.preview).toBeNull()
})
