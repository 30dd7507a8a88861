import { expect, test } from 'vitest'
import { conversationMessages } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { plainPng } from '#tests/support/photo-fixtures.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { action as staffMessageAction } from '../admin/conversation.tsx'
import { action as assignAction, loader as waitingLoader } from '../admin/conversations.tsx'
import { loader as staffRequestLoader } from '../admin/request.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import { loader as conversationLoader, action as messageAction } from './conversation.tsx'
import { middleware } from './layout.tsx'
import { loader as fileLoader } from './message-file.ts'
import { loader as requestLoader } from './request.tsx'

// The conversation's forms and pages (docs/decisions/048): each role against each address, and
// the form's refusals, translated, with nothing written.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const ana = await signedIn('ana@example.com')
  const bruno = await signedIn('bruno@example.com')
  const moderator = await signedIn('mod@example.com', 'moderator')
  const admin = await signedIn('admin@example.com', 'admin')
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const id = quoted.requestId
  const language = { value: 'en' as 'en' | 'es' }
  const customer = (
    request: Request,
    handler: (args: never) => unknown,
    params: Record<string, string> = { id },
  ) =>
    callRoute(services, middleware, request, (args) => handler(args as never), {
      params,
      context: { language: language.value },
    })
  const staff = (
    request: Request,
    handler: (args: never) => unknown,
    params: Record<string, string> = { id },
  ) =>
    callRoute(services, staffMiddleware, request, (args) => handler(args as never), {
      params,
      context: { language: language.value },
    })
  const form = (body: string, files: File[] = []) => {
    const data = new FormData()
    data.set('body', body)
    for (const file of files) data.append('files', file)
    if (files.length === 0) data.append('files', new File([], '', { type: 'application/octet-stream' }))
    return data
  }
  const post = (data: FormData, cookie?: string) =>
    customer(formPost(`/user-dashboard/requests/${id}/messages`, data, { cookie }), messageAction)
  const staffPost = (data: FormData, cookie?: string) =>
    staff(formPost(`/admin-dashboard/requests/${id}/messages`, data, { cookie }), staffMessageAction)
  return { db, ana, bruno, moderator, admin, id, quoted, customer, staff, form, post, staffPost, language }
}

test('each role on the customer’s form: anonymous signs in, another customer 404, the owner and staff write', async () => {
  const { db, ana, bruno, moderator, admin, id, form, post, staffPost, customer } = await setup()
  expect((await post(form('hola'))).status).toBe(401)
  expect((await post(form('hola'), bruno.cookie)).status).toBe(404)
  expect(
    (
      await customer(
        pageRequest(`/user-dashboard/requests/${id}/messages`, { cookie: bruno.cookie }),
        conversationLoader,
      )
    ).status,
  ).toBe(404)
  expect(await db.select().from(conversationMessages)).toEqual([])

  const photo = new File([new Uint8Array(await plainPng())], 'talla.png', { type: 'image/png' })
  const sent = await post(form('¿Esta talla?', [photo]), ana.cookie)
  expect(sent.status).toBe(302)
  expect(redirectOf(sent)).toEqual({
    location: `/user-dashboard/requests/${id}#conversation`,
    notice: { name: 'messageSent' },
  })
  // Staff answer from their side; a customer cannot post on the staff's address.
  expect((await staffPost(form('Sí'), ana.cookie)).status).toBe(403)
  const answered = await staffPost(form('Sí, es esa.'), moderator.cookie)
  expect(redirectOf(answered)).toEqual({
    location: `/admin-dashboard/requests/${id}#conversation`,
    notice: { name: 'staffMessageSent' },
  })
  expect((await staffPost(form('Y la enviamos pronto.'), admin.cookie)).status).toBe(302)
  const messages = await db.select().from(conversationMessages).orderBy(conversationMessages.createdAt)
  expect(messages.map((message) => [message.authorSide, message.body])).toEqual([
    ['customer', '¿Esta talla?'],
    ['staff', 'Sí, es esa.'],
    ['staff', 'Y la enviamos pronto.'],
  ])

  // The request page shows the thread to its customer (and marks it read); the photo is hers and staff's.
  const page = (
    await customer(pageRequest(`/user-dashboard/requests/${id}`, { cookie: ana.cookie }), requestLoader)
  ).data as {
    conversation: {
      messages: { mine: boolean; authorLabel: string; readByOther: boolean; attachments: { id: string }[] }[]
    }
  }
  expect(page.conversation.messages.map((message) => [message.mine, message.authorLabel])).toEqual([
    [true, 'You'],
    [false, 'Our team'],
    [false, 'Our team'],
  ])
  const photoId = page.conversation.messages[0]?.attachments[0]?.id ?? ''
  const fileAs = (cookie?: string) =>
    customer(pageRequest(`/user-dashboard/message-files/${photoId}`, { cookie }), fileLoader, { id: photoId })
  const own = await fileAs(ana.cookie)
  expect(own.status).toBe(200)
  expect(own.headers.get('content-type')).toBe('image/webp')
  expect(own.headers.get('x-content-type-options')).toBe('nosniff')
  expect((await fileAs(moderator.cookie)).status).toBe(200)
  expect((await fileAs(bruno.cookie)).status).toBe(404)
  expect((await fileAs()).status).toBe(401)

  // Staff see that the customer has read their answers.
  const staffPage = (
    await customer(
      pageRequest(`/admin-dashboard/requests/${id}`, { cookie: admin.cookie }),
      staffRequestLoader,
    )
  ).data as { conversation: { messages: { mine: boolean; readByOther: boolean; authorLabel: string }[] } }
  expect(staffPage.conversation.messages.map((message) => [message.mine, message.readByOther])).toEqual([
    [false, true],
    [true, true],
    [true, true],
  ])
  expect(staffPage.conversation.messages[0]?.authorLabel).toBe('ana (Customer)')
})

test('refused messages: translated field errors, 4xx, what was typed kept, nothing written', async () => {
  const { db, ana, form, post, language } = await setup()
  const errorsOf = (answer: { data: unknown }) =>
    (answer.data as { result: { formError: string; errors: Record<string, string[]>; body: string } }).result
  const empty = await post(form('   '), ana.cookie)
  expect(empty.status).toBe(400)
  expect(errorsOf(empty)).toEqual({
    formError: 'The message could not be sent. Check the fields marked below.',
    errors: { body: ['empty'] },
    body: '   ',
  })
  expect(errorsOf(await post(form('x'.repeat(4001)), ana.cookie)).errors).toEqual({ body: ['tooLong'] })
  const svg = new File(['<svg onload="alert(1)"/>'], 'x.svg', { type: 'image/svg+xml' })
  expect(errorsOf(await post(form('mira', [svg]), ana.cookie)).errors).toEqual({ files: ['fileType'] })
  const png = new Uint8Array(await plainPng())
  const five = Array.from(
    { length: 5 },
    (_, index) => new File([png], `p${index}.png`, { type: 'image/png' }),
  )
  expect(errorsOf(await post(form('fotos', five), ana.cookie)).errors).toEqual({ files: ['tooManyFiles'] })
  language.value = 'es'
  const spanish = await post(form(''), ana.cookie)
  expect(errorsOf(spanish).formError).toBe('No se pudo enviar el mensaje. Revisa los campos marcados abajo.')
  expect(await db.select().from(conversationMessages)).toEqual([])
})

test('the staff’s waiting list: oldest first, assign to me and give back; customers refused', async () => {
  const { ana, moderator, admin, id, form, post, staff } = await setup()
  expect((await post(form('¿Cuándo llega?'), ana.cookie)).status).toBe(302)
  expect(
    (await staff(pageRequest('/admin-dashboard/conversations', { cookie: ana.cookie }), waitingLoader))
      .status,
  ).toBe(403)
  expect((await staff(pageRequest('/admin-dashboard/conversations'), waitingLoader)).status).toBe(401)
  const list = await staff(
    pageRequest('/admin-dashboard/conversations', { cookie: moderator.cookie }),
    waitingLoader,
  )
  const rows = (list.data as { rows: { id: string; href: string; assignedTo: unknown }[] }).rows
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ href: `/admin-dashboard/requests/${id}#conversation`, assignedTo: null })

  const assign = (fields: Record<string, string>, cookie?: string) =>
    staff(formPost('/admin-dashboard/conversations', fields, { cookie }), assignAction, {})
  const conversationId = rows[0]?.id ?? ''
  expect((await assign({ conversationId, to: 'me' }, ana.cookie)).status).toBe(403)
  const taken = await assign({ conversationId, to: 'me', back: 'https://evil.example/' }, moderator.cookie)
  expect(redirectOf(taken)).toEqual({
    location: '/admin-dashboard/conversations',
    notice: { name: 'conversationAssigned' },
  })
  expect((await assign({ conversationId: 'not-an-id', to: 'me' }, admin.cookie)).status).toBe(404)
  const after = await staff(
    pageRequest('/admin-dashboard/conversations', { cookie: admin.cookie }),
    waitingLoader,
  )
  expect((after.data as { rows: { assignedTo: unknown }[] }).rows[0]?.assignedTo).toEqual({
    id: moderator.id,
    name: 'mod',
  })
  const back = await assign(
    { conversationId, to: 'none', back: '/admin-dashboard/conversations' },
    moderator.cookie,
  )
  expect(redirectOf(back)).toEqual({
    location: '/admin-dashboard/conversations',
    notice: { name: 'conversationUnassigned' },
  })
})

test('the customer’s page never carries who on staff handles the conversation', async () => {
  const { ana, moderator, id, form, post, customer, staff } = await setup()
  expect((await post(form('¿Cuándo llega?'), ana.cookie)).status).toBe(302)
  const list = await staff(
    pageRequest('/admin-dashboard/conversations', { cookie: moderator.cookie }),
    waitingLoader,
  )
  const conversationId = (list.data as { rows: { id: string }[] }).rows[0]?.id ?? ''
  await staff(
    formPost('/admin-dashboard/conversations', { conversationId, to: 'me' }, { cookie: moderator.cookie }),
    assignAction,
    {},
  )
  const page = await customer(
    pageRequest(`/user-dashboard/requests/${id}/messages`, { cookie: ana.cookie }),
    conversationLoader,
  )
  const thread = (page.data as { thread: { assignedTo: unknown; waitingLabel: unknown } }).thread
  expect(thread.assignedTo).toBeNull()
  expect(thread.waitingLabel).toBeNull()
  expect(JSON.stringify(page.data)).not.toContain(moderator.id)
})

test('a customer flooding the form gets a translated 429 with Retry-After, and nothing more is written', async () => {
  const { db, ana, form, post, language } = await setup()
  for (let i = 0; i < 20; i++) expect((await post(form(`hola ${i}`), ana.cookie)).status).toBe(302)
  language.value = 'es'
  const flooded = await post(form('otra'), ana.cookie)
  expect(flooded.status).toBe(429)
  expect(Number(flooded.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect((flooded.data as { result: { formError: string; body: string } }).result).toMatchObject({
    formError: 'Escribiste muchos mensajes en poco tiempo. Espera unos minutos e inténtalo de nuevo.',
    body: 'otra',
  })
  expect(await db.select().from(conversationMessages)).toHaveLength(20)
})
