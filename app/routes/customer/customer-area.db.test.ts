import { expect, test } from 'vitest'
import { loader as rootLoader } from '#app/root.tsx'
import { createAddress } from '#core/customers/profile-service.ts'
import { notifyStaff } from '#core/notifications/notify.ts'
import { addresses, notifications, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createRouteContext,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  routeAnswer,
  routeArgs,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { action as deleteAction, loader as deleteLoader } from './address-delete.tsx'
import { action as editAction, loader as editLoader } from './address-edit.tsx'
import { action as newAction, loader as newLoader } from './address-new.tsx'
import { loader as layoutLoader, middleware } from './layout.tsx'
import { action as notificationsAction, loader as notificationsLoader } from './notifications.tsx'
import { action as profileAction, loader as profileLoader } from './profile.tsx'
import { loader as shippingLoader } from './shipping.tsx'

// The customer area's new tabs called directly behind their branch's middleware: who may read and
// change what, what bad input gets (400, field errors, nothing written), and that another
// customer's notification or address is "not found" like a missing one.

type Handler = (args: never) => unknown

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const get = (path: string, handler: Handler, cookie?: string, params: Record<string, string> = {}) =>
    callRoute(services, middleware, pageRequest(path, { cookie }), (args) => handler(args as never), {
      params,
      context: { language: 'en' },
    })
  const post = (
    path: string,
    handler: Handler,
    fields: Record<string, string> | FormData,
    cookie?: string,
    params: Record<string, string> = {},
  ) =>
    callRoute(services, middleware, formPost(path, fields, { cookie }), (args) => handler(args as never), {
      params,
      context: { language: 'en' },
    })
  const notify = async (userId: string, number = 'PR-000001') => {
    const [row] = await db
      .insert(notifications)
      .values({
        userId,
        type: 'request_received',
        params: { number },
        link: '/user-dashboard/requests',
      })
      .returning({ id: notifications.id })
    return row?.id ?? ''
  }
  const addressOf = async (userId: string, city = 'Lima') =>
    (
      await createAddress(
        { db, actor: { id: userId, role: 'user' } },
        {
          fullName: 'Ana',
          street: 'Calle 1',
          city,
          country: 'PE',
          phone: '+51 1 234 5678',
          makeDefault: false,
        },
      )
    ).id
  const snapshot = async () => ({
    users: await db.select().from(users).orderBy(users.id),
    addresses: await db.select().from(addresses).orderBy(addresses.id),
    notifications: await db.select().from(notifications).orderBy(notifications.id),
  })
  return { db, pool, services, signedIn, get, post, notify, addressOf, snapshot }
}

const fieldErrors = (data: unknown) => (data as { result: { error?: Record<string, string[]> } }).result.error

const VALID_ADDRESS = {
  fullName: 'Ana Pérez',
  street: 'Av. Arequipa 123',
  city: 'Lima',
  region: 'Lima',
  postalCode: '15001',
  country: 'PE',
  phone: '+51 1 234 5678',
}

test('anonymous visitors get the login guard on every new page, and their posts are refused before any action runs', async () => {
  const { get, post, snapshot } = await setup()
  const id = '00000000-0000-4000-8000-000000000000'
  const pages: [string, Handler, Record<string, string>?][] = [
    ['/user-dashboard/notifications', notificationsLoader],
    ['/user-dashboard/profile', profileLoader],
    ['/user-dashboard/profile/addresses/new', newLoader],
    [`/user-dashboard/profile/addresses/${id}`, editLoader, { id }],
    [`/user-dashboard/profile/addresses/${id}/delete`, deleteLoader, { id }],
    ['/user-dashboard/shipping', shippingLoader],
  ]
  for (const [path, handler, params] of pages) {
    const answer = await get(path, handler, undefined, params)
    expect(answer, path).toMatchObject({ status: 401, data: { guard: 'login', redirectTo: path } })
  }
  const before = await snapshot()
  const posts: [string, Handler, Record<string, string>, Record<string, string>?][] = [
    ['/user-dashboard/notifications', notificationsAction, { intent: 'read-all' }],
    ['/user-dashboard/profile', profileAction, { intent: 'profile', name: 'X', language: 'en' }],
    ['/user-dashboard/profile/addresses/new', newAction, VALID_ADDRESS],
    [`/user-dashboard/profile/addresses/${id}`, editAction, VALID_ADDRESS, { id }],
    [`/user-dashboard/profile/addresses/${id}/delete`, deleteAction, {}, { id }],
  ]
  for (const [path, handler, fields, params] of posts) {
    expect((await post(path, handler, fields, undefined, params)).status, path).toBe(401)
  }
  expect(await snapshot()).toEqual(before)
})

test('notifications: each customer sees only their own; marking another’s or a bad id is not found; mark all', async () => {
  const { signedIn, get, post, notify } = await setup()
  const ana = await signedIn('ana@example.com')
  const bruno = await signedIn('bruno@example.com')
  const anaFirst = await notify(ana.id, 'PR-000001')
  await notify(ana.id, 'PR-000002')
  const brunos = await notify(bruno.id, 'PR-000003')

  const page = await get('/user-dashboard/notifications', notificationsLoader, ana.cookie)
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    unread: 2,
    notifications: [
      { type: 'request_received', title: 'We received your request PR-000002', read: false },
      { type: 'request_received', title: 'We received your request PR-000001', read: false },
    ],
  })
  expect(JSON.stringify(page.data)).not.toContain('PR-000003')

  const read = (fields: Record<string, string>, cookie = ana.cookie) =>
    post('/user-dashboard/notifications', notificationsAction, fields, cookie)
  for (const id of [brunos, 'nope', '<script>alert(1)</script>']) {
    const answer = await read({ intent: 'read', id })
    expect(answer.status, id).toBe(404)
    expect(answer.data).toMatchObject({ result: { error: { '': ['errors.reasons.notificationNotFound'] } } })
  }
  // No id, no intent, an unknown one: not a request this page makes.
  for (const fields of [
    {},
    { intent: 'delete' },
    { intent: 'read' },
    { intent: 'read', id: '' },
    { id: anaFirst },
  ] as Record<string, string>[]) {
    expect((await read(fields)).status, JSON.stringify(fields)).toBe(400)
  }
  const bruno2 = await get('/user-dashboard/notifications', notificationsLoader, bruno.cookie)
  expect(bruno2.data).toMatchObject({ unread: 1 })

  const one = await read({ intent: 'read', id: anaFirst })
  expect(one.status).toBe(302)
  expect(redirectOf(one)).toEqual({
    location: '/user-dashboard/notifications',
    notice: { name: 'notificationRead' },
  })
  expect((await get('/user-dashboard/notifications', notificationsLoader, ana.cookie)).data).toMatchObject({
    unread: 1,
  })
  // From an older page (its cursor), posted by a script to the data URL: back to that page.
  const cursor = `${Date.now()}.${anaFirst}`
  const all = await post(
    `/user-dashboard/notifications.data?cursor=${cursor}`,
    notificationsAction,
    { intent: 'read-all' },
    ana.cookie,
  )
  expect(redirectOf(all)).toEqual({
    location: `/user-dashboard/notifications?cursor=${cursor}`,
    notice: { name: 'notificationsAllRead' },
  })
  expect((await get('/user-dashboard/notifications', notificationsLoader, ana.cookie)).data).toMatchObject({
    unread: 0,
  })
  // Bruno's stays unread.
  expect((await get('/user-dashboard/notifications', notificationsLoader, bruno.cookie)).data).toMatchObject({
    unread: 1,
  })
  expect(
    (await get('/user-dashboard/notifications?cursor=bad', notificationsLoader, ana.cookie)).status,
  ).toBe(400)
})

test('the header’s unread count: in the root loader for a signed-in visitor, 0 for anyone else', async () => {
  const { services, signedIn, notify } = await setup()
  const ana = await signedIn('ana@example.com', 'moderator')
  await notify(ana.id)
  await notify(ana.id)
  const root = async (cookie?: string) => {
    const answer = await routeAnswer(() =>
      rootLoader(routeArgs(pageRequest('/', { cookie }), createRouteContext(services)) as never),
    )
    return answer.data as { user: unknown; unreadNotifications: number }
  }
  expect(await root(ana.cookie)).toMatchObject({ user: { role: 'moderator' }, unreadNotifications: 0 })
  expect(await root()).toMatchObject({ user: null, unreadNotifications: 0 })
  const ownTab = async (cookie: string) =>
    (
      await callRoute(services, middleware, pageRequest('/user-dashboard', { cookie }), (args) =>
        layoutLoader(args as never),
      )
    ).data
  expect(await ownTab(ana.cookie)).toEqual({ ownUnread: 2 })
  // A staff member's bell counts the staff's list (ADR 036); their own orders' notices are counted
  // on the customer area's tab.
  const customer = await signedIn('bruno@example.com')
  await notify(customer.id)
  expect(await root(customer.cookie)).toMatchObject({ user: { role: 'user' }, unreadNotifications: 1 })
  // A customer's tab reads the root's count: no second query.
  expect(await ownTab(customer.cookie)).toEqual({ ownUnread: null })
  await services.db.transaction((tx) =>
    notifyStaff(tx, services.orders.jobs, {
      type: 'new_request',
      params: { number: 'PR-000001', customer: 'Bruno', count: 1 },
      link: '/admin-dashboard/requests',
    }),
  )
  expect(await root(ana.cookie)).toMatchObject({ unreadNotifications: 1 })
  expect(await root(customer.cookie)).toMatchObject({ unreadNotifications: 1 })
})

test('profile: saved with a redirect; bad input is a 400 with field errors and nothing is written', async () => {
  const { db, signedIn, get, post, snapshot } = await setup()
  const ana = await signedIn('ana@example.com')
  const save = (fields: Record<string, string> | FormData) =>
    post('/user-dashboard/profile', profileAction, fields, ana.cookie)

  const before = await snapshot()
  const twice = new FormData()
  twice.append('intent', 'profile')
  twice.append('name', 'Ana')
  twice.append('name', 'Otra')
  twice.append('language', 'en')
  const cases: [Record<string, string> | FormData, Record<string, string[]>][] = [
    [{ intent: 'profile', name: '', language: 'en' }, { name: ['required'] }],
    [{ intent: 'profile', name: 'a'.repeat(101), language: 'en' }, { name: ['tooLong'] }],
    [
      { intent: 'profile', name: '<script>alert(1)</script>', language: 'en' },
      { name: ['invalidCharacters'] },
    ],
    [{ intent: 'profile', name: 'Ana', language: 'fr' }, { language: ['language'] }],
    [{ intent: 'profile', name: 'Ana' }, { language: ['language'] }],
    [{ intent: 'profile', name: 'Ana', language: 'en', phone: '<script>' }, { phone: ['phoneInvalid'] }],
    [{ intent: 'profile', name: 'Ana', language: 'en', phone: '9'.repeat(41) }, { phone: ['tooLong'] }],
    [twice, { name: ['required'] }],
    [{}, { name: ['required'], language: ['language'] }],
  ]
  for (const [fields, errors] of cases) {
    const answer = await save(fields)
    expect(
      answer.status,
      JSON.stringify(fields instanceof FormData ? [...fields] : fields).slice(0, 60),
    ).toBe(400)
    expect(fieldErrors(answer.data)).toEqual(errors)
  }
  expect(await snapshot()).toEqual(before)

  const saved = await save({
    intent: 'profile',
    name: ' Ana María ',
    phone: '+51 1 234 5678',
    language: 'en',
  })
  expect(saved.status).toBe(302)
  expect(redirectOf(saved)).toEqual({ location: '/user-dashboard/profile', notice: { name: 'profileSaved' } })
  const row = (await db.select().from(users)).find((user) => user.id === ana.id)
  expect(row).toMatchObject({ name: 'Ana María', phone: '+5112345678', language: 'en' })
  const page = await get('/user-dashboard/profile', profileLoader, ana.cookie)
  expect(page.data).toMatchObject({
    profile: { name: 'Ana María', email: 'ana@example.com', language: 'en' },
    hasPassword: true,
    addresses: [],
    canAdd: true,
  })
})

test('addresses: add, edit, make default, delete; another customer’s address is not found and untouched', async () => {
  const { signedIn, get, post, addressOf, snapshot } = await setup()
  const ana = await signedIn('ana@example.com')
  const bruno = await signedIn('bruno@example.com', 'admin')
  const brunos = await addressOf(bruno.id, 'Quito')

  const added = await post('/user-dashboard/profile/addresses/new', newAction, VALID_ADDRESS, ana.cookie)
  expect(added.status).toBe(302)
  expect(redirectOf(added)).toEqual({ location: '/user-dashboard/profile', notice: { name: 'addressAdded' } })
  const second = await post(
    '/user-dashboard/profile/addresses/new',
    newAction,
    { ...VALID_ADDRESS, city: 'Cusco', region: '', postalCode: '', makeDefault: 'on' },
    ana.cookie,
  )
  expect(second.status).toBe(302)
  let page = await get('/user-dashboard/profile', profileLoader, ana.cookie)
  const list = (
    page.data as { addresses: { id: string; city: string; isDefault: boolean; countryName: string }[] }
  ).addresses
  expect(list.map((address) => [address.city, address.isDefault, address.countryName])).toEqual([
    ['Cusco', true, 'Peru'],
    ['Lima', false, 'Peru'],
  ])
  const lima = list[1]?.id ?? ''
  const cusco = list[0]?.id ?? ''

  const edit = await get(`/user-dashboard/profile/addresses/${lima}`, editLoader, ana.cookie, { id: lima })
  expect(edit.data).toMatchObject({
    address: { city: 'Lima' },
    countries: expect.arrayContaining([{ code: 'PE', name: 'Peru' }]),
  })
  const edited = await post(
    `/user-dashboard/profile/addresses/${lima}`,
    editAction,
    { ...VALID_ADDRESS, street: 'Jr. de la Unión 500' },
    ana.cookie,
    { id: lima },
  )
  expect(redirectOf(edited)).toEqual({
    location: '/user-dashboard/profile',
    notice: { name: 'addressSaved' },
  })
  const madeDefault = await post(
    '/user-dashboard/profile',
    profileAction,
    { intent: 'default', id: lima },
    ana.cookie,
  )
  expect(redirectOf(madeDefault)).toEqual({
    location: '/user-dashboard/profile',
    notice: { name: 'defaultAddressChanged' },
  })
  page = await get('/user-dashboard/profile', profileLoader, ana.cookie)
  expect(page.data).toMatchObject({
    addresses: [
      { id: lima, street: 'Jr. de la Unión 500', isDefault: true },
      { id: cusco, isDefault: false },
    ],
  })

  // Bruno's address, a made-up id and a malformed one: 404 everywhere, nothing changes.
  const before = await snapshot()
  for (const id of [brunos, '00000000-0000-4000-8000-000000000000', 'nope']) {
    const path = `/user-dashboard/profile/addresses/${id}`
    expect((await get(path, editLoader, ana.cookie, { id })).status, id).toBe(404)
    expect((await get(`${path}/delete`, deleteLoader, ana.cookie, { id })).status).toBe(404)
    expect((await post(path, editAction, VALID_ADDRESS, ana.cookie, { id })).status).toBe(404)
    expect((await post(`${path}/delete`, deleteAction, {}, ana.cookie, { id })).status).toBe(404)
    const notDefault = await post(
      '/user-dashboard/profile',
      profileAction,
      { intent: 'default', id },
      ana.cookie,
    )
    expect(notDefault.status).toBe(id === 'nope' ? 400 : 404)
  }
  expect(await snapshot()).toEqual(before)

  // The confirmation page, then the delete: the other one becomes the default.
  const confirm = await get(`/user-dashboard/profile/addresses/${lima}/delete`, deleteLoader, ana.cookie, {
    id: lima,
  })
  expect(confirm.data).toMatchObject({ address: { id: lima, isDefault: true, countryName: 'Peru' } })
  const deleted = await post(
    `/user-dashboard/profile/addresses/${lima}/delete`,
    deleteAction,
    {},
    ana.cookie,
    {
      id: lima,
    },
  )
  expect(redirectOf(deleted)).toEqual({
    location: '/user-dashboard/profile',
    notice: { name: 'addressDeleted' },
  })
  // Twice (a second tab): not found.
  expect(
    (
      await post(`/user-dashboard/profile/addresses/${lima}/delete`, deleteAction, {}, ana.cookie, {
        id: lima,
      })
    ).status,
  ).toBe(404)
  page = await get('/user-dashboard/profile', profileLoader, ana.cookie)
  expect(page.data).toMatchObject({ addresses: [{ id: cusco, isDefault: true }] })
})

test('addresses: bad input is a 400 with field errors and nothing is written; the 11th is refused', async () => {
  const { signedIn, post, get, addressOf, snapshot } = await setup()
  const ana = await signedIn('ana@example.com')
  const add = (fields: Record<string, string>) =>
    post('/user-dashboard/profile/addresses/new', newAction, fields, ana.cookie)
  const before = await snapshot()
  const cases: [Record<string, string>, Record<string, string[]>][] = [
    [
      {},
      {
        fullName: ['required'],
        street: ['required'],
        city: ['required'],
        country: ['country'],
        phone: ['required'],
      },
    ],
    [{ ...VALID_ADDRESS, fullName: 'n'.repeat(121) }, { fullName: ['tooLong'] }],
    [{ ...VALID_ADDRESS, street: '<script>alert(1)</script>' }, { street: ['invalidCharacters'] }],
    [{ ...VALID_ADDRESS, city: '<img src=x onerror=alert(1)>' }, { city: ['invalidCharacters'] }],
    [{ ...VALID_ADDRESS, postalCode: '<b>' }, { postalCode: ['postalCodeInvalid'] }],
    [{ ...VALID_ADDRESS, country: 'Peru' }, { country: ['country'] }],
    [{ ...VALID_ADDRESS, country: 'JP' }, { country: ['country'] }],
    [{ ...VALID_ADDRESS, phone: 'llámame' }, { phone: ['phoneInvalid'] }],
    // Checked for its country (ADR 038): the US address with "ABCDE" and no state.
    [
      { ...VALID_ADDRESS, country: 'US', region: '', postalCode: 'ABCDE', phone: '+1 212 555 0123' },
      { postalCode: ['postalCodeFormat'], region: ['regionRequired'] },
    ],
    [{ ...VALID_ADDRESS, region: 'r'.repeat(121) }, { region: ['tooLong'] }],
  ]
  for (const [fields, errors] of cases) {
    const answer = await add(fields)
    expect(answer.status, JSON.stringify(fields).slice(0, 60)).toBe(400)
    expect(fieldErrors(answer.data)).toEqual(errors)
  }
  expect(await snapshot()).toEqual(before)

  for (let n = 0; n < 10; n += 1) await addressOf(ana.id, `C${n}`)
  const eleventh = await add(VALID_ADDRESS)
  expect(eleventh.status).toBe(409)
  expect(eleventh.data).toMatchObject({ result: { error: { '': ['errors.reasons.addressLimit'] } } })
  expect((await get('/user-dashboard/profile/addresses/new', newLoader, ana.cookie)).data).toMatchObject({
    full: true,
  })
  expect((await get('/user-dashboard/profile', profileLoader, ana.cookie)).data).toMatchObject({
    canAdd: false,
  })
})

test('the account section moved to the profile: deleting asks for the password and refuses a wrong one', async () => {
  const { db, signedIn, post } = await setup()
  const ana = await signedIn('ana@example.com')
  const remove = (fields: Record<string, string>) =>
    post('/user-dashboard/profile', profileAction, { intent: 'delete-account', ...fields }, ana.cookie)
  expect((await remove({ password: 'not my password' })).status).toBe(400)
  expect((await remove({ password: 'p'.repeat(129) })).status).toBe(400)
  const exists = async () =>
    (await db.select({ id: users.id }).from(users)).some((user) => user.id === ana.id)
  expect(await exists()).toBe(true)
  const deleted = await remove({ password: ana.password })
  expect(deleted.status).toBe(302)
  expect(deleted.headers.get('location')).toBe('/')
  expect(await exists()).toBe(false)
})

test('reading one’s own profile is never rate limited: 120 loads from one address (a carrier’s shared IP) all answer', async () => {
  const { signedIn, get } = await setup()
  const ana = await signedIn('ana@example.com')
  const statuses = new Set<number>()
  for (let load = 0; load < 120; load += 1) {
    const page = await get('/user-dashboard/profile', profileLoader, ana.cookie)
    statuses.add(page.status)
  }
  expect([...statuses]).toEqual([200])
})
