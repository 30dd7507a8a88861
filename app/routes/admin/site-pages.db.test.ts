import type { MiddlewareFunction } from 'react-router'
import { expect, test } from 'vitest'
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
import * as publicPage from '../site-page.tsx'
import { middleware as layoutMiddleware } from './layout.tsx'
import * as editor from './site-page.tsx'
import * as list from './site-pages.tsx'

// The public pages staff write (ADR 038): read by anyone in their language with the settings
// filled in; listed and edited by admins only, each save audited, a stale save refused.

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const run = (
    middleware: readonly MiddlewareFunction<Response>[],
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    options: { params?: Record<string, string>; language?: 'es' | 'en' } = {},
  ) =>
    callRoute(services, middleware, request, handler, {
      params: options.params ?? {},
      context: { language: options.language ?? 'en' },
    })
  const readPublic = (path: string, language: 'es' | 'en') =>
    run([], pageRequest(path), (args) => publicPage.loader(args as never), { language })
  const readList = (cookie?: string) =>
    run(layoutMiddleware, pageRequest('/admin-dashboard/pages', { cookie }), (args) =>
      list.loader(args as never),
    )
  const readEditor = (slug: string, cookie?: string) =>
    run(
      layoutMiddleware,
      pageRequest(`/admin-dashboard/pages/${slug}`, { cookie }),
      (args) => editor.loader(args as never),
      { params: { slug } },
    )
  const save = (slug: string, fields: Record<string, string>, cookie?: string) =>
    run(
      layoutMiddleware,
      formPost(`/admin-dashboard/pages/${slug}`, fields, { cookie }),
      (args) => editor.action(args as never),
      { params: { slug } },
    )
  const state = async () => ({
    pages: (await pool.query('SELECT * FROM site_pages ORDER BY slug')).rows,
    audit: (await pool.query('SELECT kind, subject_id, before, after FROM audit_log ORDER BY id')).rows,
  })
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const formOf = async (slug: string, cookie: string, patch: Record<string, string> = {}) => {
    const page = (await readEditor(slug, cookie)).data as {
      fields: {
        version: string
        title: Record<string, string>
        lead: Record<string, string>
        body: Record<string, string>
      }
    }
    const fields: Record<string, string> = { version: page.fields.version }
    for (const part of ['title', 'lead', 'body'] as const)
      for (const language of ['es', 'en'] as const)
        fields[`${part}.${language}`] = page.fields[part][language] ?? ''
    return { ...fields, ...patch }
  }
  return { services, readPublic, readList, readEditor, save, state, signedIn, formOf }
}

type PublicPage = {
  title: string
  sections: { heading: string | null; blocks: { type: string; text?: string; items?: string[] }[] }[]
}
const textOf = (page: PublicPage) =>
  page.sections
    .flatMap((section) => [
      section.heading ?? '',
      ...section.blocks.map((block) => block.text ?? block.items?.join('\n')),
    ])
    .join('\n')

test('both pages are public, in the reader’s language, with the shop’s settings filled in', async () => {
  const { readPublic } = await setup()
  const es = (await readPublic('/prohibited-items', 'es')) as { status: number; data: PublicPage }
  expect(es.status).toBe(200)
  expect(es.data.title).toBe('Lo que no compramos ni enviamos')
  expect(textOf(es.data)).toMatch(/Baterías de litio sueltas/)
  expect(textOf(es.data)).toMatch(/Falsificaciones/)
  // A navigation in the browser asks for the page's data at "….data".
  expect(await readPublic('/prohibited-items.data', 'es')).toMatchObject({
    status: 200,
    data: { slug: 'prohibited-items' },
  })
  const en = (await readPublic('/prohibited-items', 'en')) as { data: PublicPage }
  expect(textOf(en.data)).toMatch(/Aerosols and sprays/)

  const disclosure = (await readPublic('/seller-disclosure', 'es')) as { data: PublicPage }
  const headings = disclosure.data.sections.map((section) => section.heading)
  for (const item of [
    '販売業者',
    '所在地',
    'メールアドレス',
    '販売価格',
    '支払方法',
    '支払時期',
    '引渡時期',
    '返品・キャンセル',
  ])
    expect(headings.join(' ')).toContain(item)
  const text = textOf(disclosure.data)
  // The settings, in the reader's language: no placeholder is left.
  expect(text).toContain('Osaka, Japón')
  expect(text).toContain('hello@example.com')
  expect(text).not.toContain('{{')
  expect(textOf(((await readPublic('/seller-disclosure', 'en')) as { data: PublicPage }).data)).toContain(
    'Osaka, Japan',
  )
})

test('anonymous visitors, customers and moderators cannot list or edit the pages; nothing changes', async () => {
  const { readList, readEditor, save, state, signedIn } = await setup()
  const before = await state()
  const fields = {
    version: '0',
    'title.es': 'X',
    'title.en': 'X',
    'lead.es': 'X',
    'lead.en': 'X',
    'body.es': 'X',
    'body.en': 'X',
  }
  expect(await readList()).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await readEditor('prohibited-items')).toMatchObject({ status: 401 })
  expect(await save('prohibited-items', fields)).toMatchObject({ status: 401 })
  for (const role of ['user', 'moderator'] as const) {
    const { cookie } = await signedIn(`${role}@example.com`, role)
    expect(await readList(cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
    expect(await readEditor('prohibited-items', cookie)).toMatchObject({ status: 403 })
    expect(await save('prohibited-items', fields, cookie)).toMatchObject({ status: 403 })
  }
  expect(await state()).toEqual(before)
})

test('an admin edits a page: saved with its audit record, shown at once; bad, unknown and stale saves change nothing', async () => {
  const { readList, readEditor, readPublic, save, state, signedIn, formOf } = await setup()
  const { cookie } = await signedIn('admin@example.com', 'admin')
  expect(await readList(cookie)).toMatchObject({
    status: 200,
    data: { pages: [{ slug: 'prohibited-items' }, { slug: 'seller-disclosure' }] },
  })
  const form = await formOf('prohibited-items', cookie)
  const body = `${form['body.en']}\n\n## Also\n- Drones`
  const saved = await save('prohibited-items', { ...form, 'body.en': body }, cookie)
  expect(saved.status).toBe(302)
  expect(saved.headers.get('location')).toBe('/admin-dashboard/pages/prohibited-items')
  const after = await state()
  expect(after.audit).toEqual([
    {
      kind: 'page.update',
      subject_id: 'prohibited-items',
      before: { 'body.en': form['body.en'] },
      after: { 'body.en': body },
    },
  ])
  const page = (await readPublic('/prohibited-items', 'en')) as { data: PublicPage }
  expect(page.data.sections.at(-1)).toEqual({
    heading: 'Also',
    blocks: [{ type: 'list', items: ['Drones'] }],
  })

  // The form that showed version 1 is stale now: refused, nothing written.
  const stale = await save('prohibited-items', { ...form, 'title.es': 'Otro título' }, cookie)
  expect(stale).toMatchObject({
    status: 409,
    data: { result: { error: { '': ['errors.reasons.pageChanged'] } } },
  })
  // An empty title and an over-long body are refused on their fields.
  const fresh = await formOf('prohibited-items', cookie)
  const bad = await save(
    'prohibited-items',
    { ...fresh, 'title.es': ' ', 'body.en': 'x'.repeat(20_001) },
    cookie,
  )
  expect(bad).toMatchObject({
    status: 400,
    data: { result: { error: { 'title.es': ['required'], 'body.en': ['tooLong'] } } },
  })
  expect(await readEditor('about-us', cookie)).toMatchObject({ status: 404 })
  expect(await save('about-us', fresh, cookie)).toMatchObject({ status: 404 })
  // Saving what is there already writes nothing and records nothing.
  expect((await save('prohibited-items', fresh, cookie)).status).toBe(302)
  expect(await state()).toEqual(after)
})
