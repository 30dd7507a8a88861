import { expect, test } from 'vitest'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { plainPng } from '#tests/support/photo-fixtures.ts'
import {
  callFileRoute,
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import * as customerLayout from '../customer/layout.tsx'
import { middleware as customerMiddleware } from '../customer/layout.tsx'
import * as packagePhoto from '../customer/package-photo.ts'
import * as shipping from '../customer/shipping.tsx'
import * as arrival from './arrival.tsx'
import * as requestPage from './request.tsx'
import { middleware as staffMiddleware } from './staff-layout.tsx'

// The warehouse pages called as the server would (through their branch's middleware), for every
// role: the arrival form (multipart, photos), "mark bought" on the request page, the customer's
// shipping tab and the package photos' address.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const people = {
    owner: await signedInCaller(pool, { email: 'ana@example.com' }),
    other: await signedInCaller(pool, { email: 'bruno@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const quoted = await insertQuotedRequest(pool, {
    userId: people.owner.id,
    items: [{ unitPriceJpy: 2500, quantity: 2, domesticShippingJpy: 800 }, { unitPriceJpy: 1200 }],
  })
  await recordManualPayment(
    { db, actor: { id: people.admin.id, role: 'admin' }, ...services.orders },
    { invoiceId: quoted.invoiceId, version: 0, amountJpy: String(quoted.totalJpy), reference: 'BANK 1' },
  )
  const id = quoted.requestId
  const version = async () =>
    Number((await pool.query('SELECT version FROM purchase_requests WHERE id = $1', [id])).rows[0].version)
  const staff = (request: Request, handler: (args: never) => unknown) =>
    callRoute(services, staffMiddleware, request, (args) => handler(args as never), {
      params: { id },
      context: { language: 'en' },
    })
  const customer = (
    request: Request,
    handler: (args: never) => unknown,
    params: Record<string, string> = {},
  ) =>
    callRoute(services, customerMiddleware, request, (args) => handler(args as never), {
      params,
      context: { language: 'en' },
    })
  const arrivalForm = async (fields: Record<string, string>, files: Blob[] = []) => {
    const body = new FormData()
    body.set('version', String(await version()))
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    for (const file of files) body.append('photos', file, 'box.png')
    return body
  }
  const book = async (body: FormData, cookie?: string) =>
    staff(formPost(`/admin-dashboard/requests/${id}/arrival`, body, { cookie }), arrival.action)
  const state = async () => ({
    packages: (await pool.query('SELECT count(*)::int AS n FROM packages')).rows[0].n,
    items: (await pool.query('SELECT status, weight_grams FROM request_items ORDER BY position')).rows,
    events: (await pool.query('SELECT count(*)::int AS n FROM order_events')).rows[0].n,
  })
  return { services, pool, people, quoted, id, version, staff, customer, arrivalForm, book, state }
}

test('anonymous visitors, customers (the owner too) are refused the arrival page and its actions; nothing written', async () => {
  const { people, id, version, staff, arrivalForm, book, state, quoted } = await setup()
  const before = await state()
  for (const [cookie, status] of [
    [undefined, 401],
    [people.owner.cookie, 403],
    [people.other.cookie, 403],
  ] as const) {
    expect(
      (await staff(pageRequest(`/admin-dashboard/requests/${id}/arrival`, { cookie }), arrival.loader))
        .status,
    ).toBe(status)
    const body = await arrivalForm({
      'items[0].id': quoted.itemIds[0] ?? '',
      'items[0].received': 'on',
      'items[0].weight': '500',
      shelf: 'A-1',
    })
    expect((await book(body, cookie)).status).toBe(status)
    const mark = formPost(
      `/admin-dashboard/requests/${id}`,
      { intent: 'mark_ordered', version: String(await version()) },
      { cookie },
    )
    expect((await staff(mark, requestPage.action)).status).toBe(status)
  }
  expect(await state()).toEqual(before)
})

test('a moderator marks the items bought, books a parcel with a photo; the owner sees it and its photo, nobody else', async () => {
  const { people, id, version, staff, customer, arrivalForm, book, quoted, pool, services } = await setup()
  const mod = people.moderator.cookie
  const mark = await staff(
    formPost(
      `/admin-dashboard/requests/${id}`,
      { intent: 'mark_ordered', version: String(await version()) },
      { cookie: mod },
    ),
    requestPage.action,
  )
  expect(mark).toMatchObject({ status: 302 })
  expect(redirectOf(mark)).toEqual({
    location: `/admin-dashboard/requests/${id}`,
    notice: { name: 'itemsOrdered' },
  })
  const page = await staff(
    pageRequest(`/admin-dashboard/requests/${id}/arrival`, { cookie: mod }),
    arrival.loader,
  )
  expect(page).toMatchObject({ status: 200, data: { items: [{ position: 1 }, { position: 2 }] } })

  const body = await arrivalForm(
    {
      'items[0].id': quoted.itemIds[0] ?? '',
      'items[0].received': 'on',
      'items[0].weight': '1.250',
      shelf: 'B-7',
      note: '<b>ok</b>',
    },
    [new Blob([new Uint8Array(await plainPng(200, 120))], { type: 'image/png' })],
  )
  const booked = await book(body, mod)
  expect(booked.status).toBe(302)
  expect(redirectOf(booked)).toEqual({
    location: `/admin-dashboard/requests/${id}`,
    notice: { name: 'itemsReceived' },
  })
  const detail = await staff(
    pageRequest(`/admin-dashboard/requests/${id}`, { cookie: mod }),
    requestPage.loader,
  )
  expect(detail.data).toMatchObject({
    packages: [
      { shelf: 'B-7', conditionNote: '<b>ok</b>', items: [{ position: 1, weightLabel: '1,250 g' }] },
    ],
    may: { markOrdered: false, bookArrival: true, markUnavailable: false },
  })

  const tab = await customer(
    pageRequest('/user-dashboard/shipping', { cookie: people.owner.cookie }),
    shipping.loader,
  )
  const items = (tab.data as { items: { weightLabel: string; daysLeft: number; photos: { id: string }[] }[] })
    .items
  expect(items).toEqual([expect.objectContaining({ weightLabel: '1,250 g', daysLeft: 30 })])
  const photoId = items[0]?.photos[0]?.id ?? ''
  const photo = (cookie?: string, suffix = '', headers: Record<string, string> = {}) => {
    const request = pageRequest(`/user-dashboard/package-photos/${photoId}${suffix}`, { cookie })
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value)
    return callFileRoute(services, customerLayout, packagePhoto, request, {
      params: { photoId },
      context: { language: 'en' },
    })
  }
  const full = await photo(people.owner.cookie)
  expect(full.status).toBe(200)
  expect(full.headers.get('content-type')).toBe('image/webp')
  expect(full.headers.get('cache-control')).toBe('private, max-age=3600')
  expect((await photo(people.owner.cookie, '/thumb')).status).toBe(200)
  expect((await photo(people.admin.cookie)).status).toBe(200)
  expect(
    (await photo(people.owner.cookie, '', { 'if-none-match': full.headers.get('etag') ?? '' })).status,
  ).toBe(304)
  expect((await photo(people.other.cookie)).status).toBe(404)
  expect((await photo(undefined)).status).toBe(401)
  const otherTab = await customer(
    pageRequest('/user-dashboard/shipping', { cookie: people.other.cookie }),
    shipping.loader,
  )
  expect(otherTab.data).toMatchObject({ items: [] })
  expect(
    (await pool.query("SELECT count(*)::int AS n FROM notifications WHERE type = 'items_arrived'")).rows[0].n,
  ).toBe(1)

  // The other item, not supplied by the shop: a moderator may not mark it (money), an admin may.
  const unavailable = async (cookie: string, reason: string) =>
    staff(
      formPost(
        `/admin-dashboard/requests/${id}`,
        {
          intent: 'mark_unavailable',
          version: String(await version()),
          itemId: quoted.itemIds[1] ?? '',
          reason,
        },
        { cookie },
      ),
      requestPage.action,
    )
  expect((await unavailable(mod, 'Sold out')).status).toBe(403)
  expect((await unavailable(people.admin.cookie, '')).status).toBe(400)
  expect((await pool.query('SELECT count(*)::int AS n FROM refunds')).rows[0].n).toBe(0)
  const done = await unavailable(people.admin.cookie, 'Sold out')
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toEqual({
    location: `/admin-dashboard/requests/${id}`,
    notice: { name: 'itemUnavailable' },
  })
  // 1,200 + fee 500 + its tax share ⌊(1,200 + 500) × 10 %⌋ = 1,870.
  expect((await pool.query('SELECT amount_jpy::int AS amount, status FROM refunds')).rows).toEqual([
    { amount: 1870, status: 'due' },
  ])
})

test('bad input on the arrival form: a 400 that says why, and nothing written', async () => {
  const { people, arrivalForm, book, state, quoted } = await setup()
  const cookie = people.admin.cookie
  const item = quoted.itemIds[0] ?? ''
  const before = await state()
  const cases: [Record<string, string>, Blob[], Record<string, string[]>][] = [
    [{ 'items[0].id': item, 'items[0].weight': '500', shelf: 'A' }, [], { items: ['noItemTicked'] }],
    [
      { 'items[0].id': item, 'items[0].received': 'on', 'items[0].weight': '2.5kg', shelf: '' },
      [],
      { 'items[0].weight': ['weightWhole'], shelf: ['shelfRequired'] },
    ],
    [
      { 'items[0].id': item, 'items[0].received': 'on', 'items[0].weight': '99999', shelf: 'x'.repeat(41) },
      [],
      { 'items[0].weight': ['weightRange'], shelf: ['shelfTooLong'] },
    ],
    [
      { 'items[0].id': item, 'items[0].received': 'on', 'items[0].weight': '10', shelf: 'A' },
      [new Blob(['%PDF-1.4'], { type: 'image/png' })],
      { photos: ['photoType'] },
    ],
  ]
  for (const [fields, files, errors] of cases) {
    const answer = await book(await arrivalForm(fields, files), cookie)
    expect(answer.status, JSON.stringify(fields)).toBe(400)
    expect((answer.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject(
      errors,
    )
  }
  expect(await state()).toEqual(before)
})
