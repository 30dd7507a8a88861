import sharp from 'sharp'
import { expect, test, vi } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  type routeArgs,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { seedAsInstalled } from '#tests/support/seeded.ts'
import * as storeLogo from '../store-logo.ts'
import { middleware as layoutMiddleware } from './layout.tsx'
import * as storePage from './store.tsx'
import * as storesPage from './stores.tsx'

// The store guide editor's pages called as the server would: through the admin branch's
// middleware and each page's own, for every role, with good, bad, hostile and stale input; the
// logo upload and its public address.

const FIELDS = {
  name: 'Tienda <script>alert(1)</script>',
  url: 'https://tienda.example.jp',
  descriptionEs: 'Cosas lindas.',
  descriptionEn: 'Nice things.',
  logoText: 'TI',
  logoColor: '#334155',
}

function form(fields: Record<string, string>, categories: string[] = ['household_and_misc']) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  for (const category of categories) body.append('categories', category)
  return body
}

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const changed = vi.fn()
  services.catalog.onChange(changed)
  const run = (
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    params: Record<string, string> = {},
  ) =>
    callRoute(services, layoutMiddleware, request, handler, {
      params,
      context: { language: 'en' },
    })
  const list = (cookie?: string) =>
    run(pageRequest('/admin-dashboard/stores', { cookie }), (args) => storesPage.loader(args as never))
  const listAction = (fields: Record<string, string>, cookie?: string) =>
    run(formPost('/admin-dashboard/stores', fields, { cookie }), (args) => storesPage.action(args as never))
  const open = (id: string | undefined, cookie?: string) =>
    run(
      pageRequest(`/admin-dashboard/stores/${id ?? 'new'}`, { cookie }),
      (args) => storePage.loader(args as never),
      id === undefined ? {} : { id },
    )
  const save = (id: string | undefined, body: FormData | Record<string, string>, cookie?: string) =>
    run(
      formPost(`/admin-dashboard/stores/${id ?? 'new'}`, body, { cookie }),
      (args) => storePage.action(args as never),
      id === undefined ? {} : { id },
    )
  const logo = (file: string, params: Record<string, string> = { file }) =>
    callRoute(services, [], pageRequest(`/store-logos/${file}`), (args) => storeLogo.loader(args as never), {
      params,
    })
  const people = {
    customer: await signedInCaller(pool, { email: 'ana@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const state = async () => ({
    stores: (await pool.query('SELECT * FROM stores ORDER BY id')).rows,
    categories: (await pool.query('SELECT * FROM store_categories ORDER BY store_id, category')).rows,
    audit: (await pool.query('SELECT kind FROM audit_log ORDER BY id')).rows,
  })
  const firstId = async () => String((await pool.query('SELECT min(id) AS id FROM stores')).rows[0].id)
  return { list, listAction, open, save, logo, people, state, changed, firstId, pool }
}

test('anonymous visitors get the login guard; customers and moderators the admin guard, on every page and action; nothing written', async () => {
  const { list, listAction, open, save, people, state, changed, firstId } = await setup()
  const before = await state()
  const id = await firstId()
  for (const [cookie, status] of [
    [undefined, 401],
    [people.customer.cookie, 403],
    [people.moderator.cookie, 403],
  ] as const) {
    expect((await list(cookie)).status).toBe(status)
    expect((await open(undefined, cookie)).status).toBe(status)
    expect((await open(id, cookie)).status).toBe(status)
    expect((await listAction({ intent: 'hide', storeId: id }, cookie)).status).toBe(status)
    expect((await save(undefined, form(FIELDS), cookie)).status).toBe(status)
    expect((await save(id, form({ ...FIELDS, version: '1' }), cookie)).status).toBe(status)
    expect((await save(id, { intent: 'removeLogo' }, cookie)).status).toBe(status)
  }
  expect(await state()).toEqual(before)
  expect(changed).not.toHaveBeenCalled()
})

test('an admin adds a store (hostile text kept as text), edits it, and each save drops the cached pages', async () => {
  const { list, open, save, people, changed, pool } = await setup()
  const cookie = people.admin.cookie
  const created = await save(undefined, form(FIELDS, ['household_and_misc', 'beauty_and_cosmetics']), cookie)
  expect(created.status).toBe(302)
  expect(created.headers.get('location')).toBe('/admin-dashboard/stores')
  expect(created.headers.get('set-cookie')).toContain('storeSaved')
  expect(changed).toHaveBeenCalledTimes(1)
  const rows = (await list(cookie)).data as { stores: { id: number; name: string; categories: string[] }[] }
  const mine = rows.stores.at(-1)
  expect(mine).toMatchObject({
    name: FIELDS.name,
    categories: ['household_and_misc', 'beauty_and_cosmetics'],
  })
  const id = String(mine?.id)
  expect(await open(id, cookie)).toMatchObject({
    status: 200,
    data: { fields: { version: '1', name: FIELDS.name } },
  })
  const edited = await save(id, form({ ...FIELDS, name: 'Tienda', version: '1' }), cookie)
  expect(edited.status).toBe(302)
  expect(edited.headers.get('location')).toBe(`/admin-dashboard/stores/${id}`)
  expect((await pool.query('SELECT name, version FROM stores WHERE id = $1', [id])).rows[0]).toEqual({
    name: 'Tienda',
    version: 2,
  })
  expect(changed).toHaveBeenCalledTimes(2)
})

test('bad input: each field says why, with a 400, and nothing is written', async () => {
  const { save, people, state, firstId } = await setup()
  const cookie = people.admin.cookie
  const before = await state()
  const empty = await save(undefined, form({}, []), cookie)
  expect(empty.status).toBe(400)
  expect((empty.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject({
    name: ['required'],
    url: ['required'],
    categories: ['categoriesRequired'],
    logoColor: ['required'],
  })
  const hostile = await save(
    undefined,
    form({ ...FIELDS, name: 'x'.repeat(500), url: 'javascript:alert(1)', logoColor: '#fde047' }, [
      'household_and_misc',
      "'; drop table stores; --",
    ]),
    cookie,
  )
  expect(hostile.status).toBe(400)
  expect((hostile.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject({
    name: ['tooLong'],
    url: ['httpsUrl'],
    categories: ['invalid'],
    logoColor: ['colorContrast'],
  })
  expect((await save('abc', form({ ...FIELDS, version: '1' }), cookie)).status).toBe(404)
  expect((await save('999999', form({ ...FIELDS, version: '1' }), cookie)).status).toBe(404)
  const id = await firstId()
  expect((await save(id, { intent: 'logo' }, cookie)).status).toBe(400)
  expect(await state()).toEqual(before)
})

test('a stale form is refused with a 409 and what is saved now beside each field that differs', async () => {
  const { save, open, people, firstId } = await setup()
  const cookie = people.admin.cookie
  const id = await firstId()
  const shown = (await open(id, cookie)).data as { fields: Record<string, string | string[]> }
  const { version, categories, ...fields } = shown.fields
  const mine = form(
    { ...(fields as Record<string, string>), version: String(version) },
    categories as string[],
  )
  const other = form(
    {
      ...(fields as Record<string, string>),
      version: String(version),
      descriptionEn: 'Changed by another admin.',
    },
    categories as string[],
  )
  expect((await save(id, other, cookie)).status).toBe(302)
  mine.set('name', 'Mine')
  const stale = await save(id, mine, cookie)
  expect(stale.status).toBe(409)
  expect(stale.data).toMatchObject({
    fresh: {
      version: String(Number(version) + 1),
      changed: { name: fields.name, descriptionEn: 'Changed by another admin.' },
    },
  })
})

test('hide, show and move from the list; bad intents and unknown stores are refused', async () => {
  const { listAction, list, people, firstId, changed } = await setup()
  const cookie = people.admin.cookie
  const id = await firstId()
  const hidden = await listAction({ intent: 'hide', storeId: id }, cookie)
  expect(hidden.status).toBe(302)
  expect(hidden.headers.get('location')).toBe(`/admin-dashboard/stores#store-${id}`)
  expect(hidden.headers.get('set-cookie')).toContain('storeHidden')
  const page = (await list(cookie)).data as { stores: { id: number; hidden: boolean }[] }
  expect(page.stores.find((store) => String(store.id) === id)?.hidden).toBe(true)
  expect((await listAction({ intent: 'down', storeId: id }, cookie)).status).toBe(302)
  const moved = (await list(cookie)).data as { stores: { id: number }[] }
  expect(String(moved.stores[1]?.id)).toBe(id)
  expect(changed).toHaveBeenCalledTimes(2)
  expect((await listAction({ intent: 'delete', storeId: id }, cookie)).status).toBe(400)
  expect((await listAction({ intent: 'hide', storeId: '1 or 1=1' }, cookie)).status).toBe(400)
  expect((await listAction({ intent: 'hide', storeId: '999999' }, cookie)).status).toBe(404)
})

test('a logo upload: a PNG is stored and served for good at its own address; an unsafe SVG is refused', async () => {
  const { save, open, logo, people, firstId } = await setup()
  const cookie = people.admin.cookie
  const id = await firstId()
  const upload = (bytes: Uint8Array | Buffer, name: string, type: string) => {
    const body = new FormData()
    body.set('intent', 'logo')
    body.set('logo', new File([new Uint8Array(bytes)], name, { type }))
    return save(id, body, cookie)
  }
  const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#4338ca' } })
    .png()
    .toBuffer()
  expect((await upload(png, 'logo.png', 'image/png')).status).toBe(302)
  const logoUrl = ((await open(id, cookie)).data as { store: { logoUrl: string } }).store.logoUrl
  expect(logoUrl).toMatch(/^\/store-logos\/\d+-[0-9a-f]{16}\.png$/)
  const served = await logo(logoUrl.replace('/store-logos/', ''))
  expect(served.status).toBe(200)
  expect(served.headers.get('content-type')).toBe('image/png')
  expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  expect((await logo(`${id}-${'0'.repeat(16)}.png`)).status).toBe(404)
  expect((await logo('../../etc/passwd')).status).toBe(404)

  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/t.png"/></svg>'
  const refused = await upload(new TextEncoder().encode(svg), 'logo.svg', 'image/svg+xml')
  expect(refused).toMatchObject({ status: 400, data: { logoProblem: 'errors.reasons.logoUnsafe' } })
  const notImage = await upload(new TextEncoder().encode('%PDF-1.7'), 'logo.png', 'image/png')
  expect(notImage).toMatchObject({ status: 400, data: { logoProblem: 'errors.reasons.logoType' } })
  const tooLarge = await upload(new Uint8Array(700 * 1024), 'big.png', 'image/png')
  expect(tooLarge).toMatchObject({ status: 413, data: { logoProblem: 'errors.reasons.logoTooLarge' } })
  expect(((await open(id, cookie)).data as { store: { logoUrl: string } }).store.logoUrl).toBe(logoUrl)

  expect((await save(id, { intent: 'removeLogo' }, cookie)).status).toBe(302)
  expect(((await open(id, cookie)).data as { store: { logoUrl: string | null } }).store.logoUrl).toBeNull()
})
