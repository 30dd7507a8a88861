import { expect, test } from 'vitest'
import { orderEvents, purchaseRequests, requestItems } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { loader as queueLoader } from '../admin/requests.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import { action as dashboardAction } from './dashboard.tsx'
import { middleware } from './layout.tsx'
import { action as requestAction, loader as requestLoader } from './request.tsx'

// The request actions and loaders called directly behind their branch's middleware: what they
// answer to bad input, and that nothing is written then.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const submit = (fields: Record<string, string>, cookie?: string) =>
    callRoute(
      services,
      middleware,
      formPost('/user-dashboard', { form: 'request', ...fields }, { cookie }),
      (args) => dashboardAction(args),
      { context: { language: 'en' } },
    )
  const cancel = (id: string, fields: Record<string, string>, cookie?: string) =>
    callRoute(
      services,
      middleware,
      formPost(`/user-dashboard/requests/${id}`, fields, { cookie }),
      (args) => requestAction(args as never),
      { params: { id } },
    )
  const view = (id: string, cookie?: string) =>
    callRoute(
      services,
      middleware,
      pageRequest(`/user-dashboard/requests/${id}`, { cookie }),
      (args) => requestLoader(args as never),
      { params: { id } },
    )
  const queue = (search: string, cookie?: string) =>
    callRoute(
      services,
      staffMiddleware,
      pageRequest(`/admin-dashboard/requests${search}`, { cookie }),
      (args) => queueLoader(args),
    )
  const stored = async () => ({
    requests: (await db.select().from(purchaseRequests)).length,
    items: (await db.select().from(requestItems)).length,
    events: (await db.select().from(orderEvents)).length,
  })
  return { submit, cancel, view, queue, stored, signedIn }
}

const fieldErrors = (data: unknown) => (data as { result: { error?: Record<string, string[]> } }).result.error

test('a signed-in customer submits two links and is sent to the request', async () => {
  const { submit, stored, signedIn, view } = await setup()
  const ana = await signedIn('ana@example.com')
  const answer = await submit(
    {
      'items[0].url': 'https://jp.mercari.com/item/m1',
      'items[0].quantity': '2',
      'items[1].url': 'https://www.amazon.co.jp/dp/B0',
      'items[1].quantity': '',
      note: 'Thanks',
    },
    ana.cookie,
  )
  expect(answer.status).toBe(302)
  const location = answer.headers.get('location') ?? ''
  expect(location).toMatch(/^\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
  // The notice names the request: "Request PR-… sent".
  expect(redirectOf(answer).notice).toEqual({
    name: 'requestSent',
    params: { number: expect.stringMatching(/^PR-\d{6}$/) },
  })
  expect(await stored()).toEqual({ requests: 1, items: 2, events: 1 })
  const id = location.split('/')[3]?.split('?')[0] ?? ''
  const page = await view(id, ana.cookie)
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    request: { status: 'submitted', items: [{ quantity: 2 }, { quantity: 1 }], actions: ['cancel'] },
  })
})

test('anonymous posts are refused before the action runs; bad input is refused by field; nothing is written', async () => {
  const { submit, stored, signedIn } = await setup()
  expect((await submit({ 'items[0].url': 'https://jp.mercari.com/item/m1' })).status).toBe(401)
  const ana = await signedIn('ana@example.com')
  const cases: [Record<string, string>, Record<string, string[]>][] = [
    [{ 'items[0].url': 'javascript:alert(document.cookie)' }, { 'items[0].url': ['urlScheme'] }],
    [{ 'items[0].url': 'data:text/html;base64,PHNjcmlwdD4=' }, { 'items[0].url': ['urlScheme'] }],
    [
      { 'items[0].url': 'https://a.jp/x', 'items[0].quantity': '0' },
      { 'items[0].quantity': ['quantityRange'] },
    ],
    [
      { 'items[0].url': 'https://a.jp/x', 'items[0].quantity': '-1' },
      { 'items[0].quantity': ['quantityRange'] },
    ],
    [
      { 'items[0].url': 'https://a.jp/x', 'items[0].quantity': '1.5' },
      { 'items[0].quantity': ['quantityWhole'] },
    ],
    [
      { 'items[0].url': 'https://a.jp/x', 'items[0].quantity': '100' },
      { 'items[0].quantity': ['quantityRange'] },
    ],
    [
      { 'items[0].url': 'https://a.jp/x', 'items[0].quantity': 'many' },
      { 'items[0].quantity': ['quantityWhole'] },
    ],
    [
      { 'items[0].url': 'https://a.jp/x', 'items[0].notes': 'n'.repeat(2001) },
      { 'items[0].notes': ['notesTooLong'] },
    ],
    [{}, { items: ['noItems'] }],
  ]
  for (const [fields, errors] of cases) {
    const answer = await submit(fields, ana.cookie)
    expect(answer.status, JSON.stringify(fields).slice(0, 60)).toBe(400)
    expect(fieldErrors(answer.data)).toEqual(errors)
  }
  // An eleventh row is not from our form (it offers ten): refused before it is read, as a page.
  const eleven = Object.fromEntries(
    Array.from({ length: 11 }, (_, index) => [`items[${index}].url`, 'https://a.jp/x']),
  )
  expect(await submit(eleven, ana.cookie)).toMatchObject({
    status: 400,
    data: { appError: { messageKey: 'errors.reasons.formListTooLong' } },
  })
  expect(await stored()).toEqual({ requests: 0, items: 0, events: 0 })
})

test('without JavaScript, "add another link" answers the form with one more row and writes nothing', async () => {
  const { submit, stored, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const answer = await submit(
    {
      'items[0].url': 'https://jp.mercari.com/item/m1',
      __intent__: JSON.stringify({
        type: 'insert',
        payload: { name: 'items', defaultValue: { quantity: '1' } },
      }),
    },
    ana.cookie,
  )
  expect(answer.status).toBe(200)
  expect(answer.data).toMatchObject({
    form: 'request',
    result: { initialValue: { items: [{ url: 'https://jp.mercari.com/item/m1' }, { quantity: '1' }] } },
  })
  expect(await stored()).toEqual({ requests: 0, items: 0, events: 0 })
})

test("cancel: someone else's request is not found, a stale version is a conflict, bad input a 400", async () => {
  const { submit, cancel, view, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const bruno = await signedIn('bruno@example.com')
  const created = await submit({ 'items[0].url': 'https://jp.mercari.com/item/m1' }, ana.cookie)
  const id = (created.headers.get('location') ?? '').split('/')[3]?.split('?')[0] ?? ''

  expect((await view(id, bruno.cookie)).status).toBe(404)
  expect((await view('not-an-id', ana.cookie)).status).toBe(404)
  expect((await cancel(id, { version: '0' }, bruno.cookie)).status).toBe(404)
  expect((await cancel(id, { version: 'x' }, ana.cookie)).status).toBe(400)
  expect((await cancel(id, { version: '0' })).status).toBe(401)

  const done = await cancel(id, { version: '0' }, ana.cookie)
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toEqual({
    location: `/user-dashboard/requests/${id}`,
    notice: { name: 'requestCancelled' },
  })
  const again = await cancel(id, { version: '0' }, ana.cookie)
  expect(again.status).toBe(409)
  expect(again.data).toMatchObject({ result: { error: { '': ['errors.reasons.requestChanged'] } } })
})

test('the staff queue is for admins and moderators; a customer gets the admin guard', async () => {
  const { submit, queue, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const admin = await signedIn('boss@example.com', 'admin')
  const moderator = await signedIn('mod@example.com', 'moderator')
  await submit({ 'items[0].url': 'https://jp.mercari.com/item/m1' }, ana.cookie)
  expect((await queue('', ana.cookie)).status).toBe(403)
  expect((await queue('')).status).toBe(401)
  expect((await queue('', moderator.cookie)).status).toBe(200)
  const page = await queue('?status=submitted&q=ana', admin.cookie)
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    status: 'submitted',
    q: 'ana',
    counts: { submitted: 1 },
    rows: [{ customerEmail: 'ana@example.com' }],
  })
  expect((await queue('?cursor=nonsense', admin.cookie)).status).toBe(400)
})
