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
import { middleware } from './layout.tsx'
import { action as messageAction, loader as messageLoader } from './message.tsx'
import { loader as listLoader } from './messages.tsx'

// The contact inbox's loaders and action called through the admin branch's middleware.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const run = (
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    params: Record<string, string> = {},
    language: 'es' | 'en' = 'en',
  ) => callRoute(services, middleware, request, handler, { params, context: { language } })
  const list = (cookie?: string, search = '') =>
    run(pageRequest(`/admin-dashboard/messages${search}`, { cookie }), (args) => listLoader(args as never))
  const read = (id: string, cookie?: string, language: 'es' | 'en' = 'en') =>
    run(
      pageRequest(`/admin-dashboard/messages/${id}`, { cookie }),
      (args) => messageLoader(args as never),
      { id },
      language,
    )
  const post = (id: string, fields: Record<string, string>, cookie?: string) =>
    run(
      formPost(`/admin-dashboard/messages/${id}`, fields, { cookie }),
      (args) => messageAction(args as never),
      {
        id,
      },
    )
  const insertMessage = async (name: string, message = `Hola, soy ${name}`, language = 'es') => {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO contact_messages (name, email, subject, message, language, forward_status)
       VALUES ($1, $2, 'shipping', $3, $4, 'not_configured') RETURNING id`,
      [name, `${name.toLowerCase()}+x@example.com`, message, language],
    )
    return rows[0]?.id as string
  }
  return { pool, signedIn, list, read, post, insertMessage }
}

test('anonymous visitors get the login guard, customers and moderators the admin guard, and nothing changes', async () => {
  const { pool, signedIn, list, read, post, insertMessage } = await setup()
  const id = await insertMessage('Ana')
  expect(await list()).toMatchObject({
    status: 401,
    data: { guard: 'login', redirectTo: '/admin-dashboard/messages' },
  })
  expect(await read(id)).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await post(id, { intent: 'handle' })).toMatchObject({ status: 401 })
  for (const role of ['user', 'moderator'] as const) {
    const member = await signedIn(`${role}@example.com`, role)
    expect(await list(member.cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
    expect(await read(id, member.cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
    expect(await post(id, { intent: 'handle' }, member.cookie)).toMatchObject({ status: 403 })
  }
  const { rows } = await pool.query('SELECT handled_at FROM contact_messages WHERE id = $1', [id])
  expect(rows[0].handled_at).toBeNull()
})

test('an admin lists, reads (as text, Japan time, a mailto reply in the customer’s language), marks handled and reopens', async () => {
  const { pool, signedIn, list, read, post, insertMessage } = await setup()
  const admin = await signedIn('boss@example.com', 'admin')
  const id = await insertMessage('Ana', '<script>alert(1)</script>\nSegunda línea')
  await pool.query(`UPDATE contact_messages SET created_at = '2026-11-23T01:30:00Z' WHERE id = $1`, [id])

  const listed = await list(admin.cookie)
  expect(listed.status).toBe(200)
  expect(listed.headers.get('cache-control') ?? '').not.toContain('public')
  expect(listed.data).toMatchObject({ filter: 'open', items: [{ id, name: 'Ana', handled: false }] })

  const page = await read(id, admin.cookie)
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    message: {
      id,
      name: 'Ana',
      email: 'ana+x@example.com',
      text: '<script>alert(1)</script>\nSegunda línea',
      language: 'es',
      // 01:30 UTC is 10:30 in Japan.
      received: expect.stringContaining('10:30'),
      handled: null,
    },
    // The shop's name from the settings, in the language the customer wrote in.
    replyHref: `mailto:ana%2Bx@example.com?subject=${encodeURIComponent('Re: tu mensaje a Demo Proxy Shopping Japan')}`,
  })

  const handled = await post(id, { intent: 'handle' }, admin.cookie)
  expect(handled.status).toBe(302)
  expect(handled.headers.get('location')).toBe(`/admin-dashboard/messages/${id}`)
  const { rows } = await pool.query('SELECT handled_at, handled_by FROM contact_messages WHERE id = $1', [id])
  expect(rows[0]).toMatchObject({ handled_by: admin.id, handled_at: expect.any(Date) })
  expect(await read(id, admin.cookie)).toMatchObject({ data: { message: { handledBy: 'boss' } } })
  expect(await list(admin.cookie)).toMatchObject({ data: { items: [] } })
  expect(await list(admin.cookie, '?status=handled')).toMatchObject({
    data: { filter: 'handled', items: [{ id }] },
  })

  expect(await post(id, { intent: 'reopen' }, admin.cookie)).toMatchObject({ status: 302 })
  expect(await list(admin.cookie)).toMatchObject({ data: { items: [{ id }] } })
})

test('a wrong intent is a 400 with the field error; an unknown or malformed id is a 404', async () => {
  const { signedIn, read, post, insertMessage } = await setup()
  const admin = await signedIn('boss@example.com', 'admin')
  const id = await insertMessage('Ana')
  const wrong = await post(id, { intent: 'delete' }, admin.cookie)
  expect(wrong.status).toBe(400)
  expect(wrong.data).toMatchObject({ result: { error: { intent: ['intent'] } } })
  for (const missing of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'not-a-uuid']) {
    expect(await read(missing, admin.cookie)).toMatchObject({
      status: 404,
      data: { appError: { code: 'not_found', messageKey: 'errors.reasons.messageNotFound' } },
    })
    expect(await post(missing, { intent: 'handle' }, admin.cookie)).toMatchObject({
      status: 404,
      data: { error: { code: 'not_found' } },
    })
  }
})
