import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import {
  conversationAttachments,
  conversationMessages,
  conversations,
  notifications,
  users,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { plainPng } from '#tests/support/photo-fixtures.ts'
import { refusal } from '#tests/support/refusal.ts'
import * as fixtures from '#tests/support/shipment-fixtures.ts'
import {
  assignConversation,
  getConversationAttachment,
  listWaitingConversations,
  openConversation,
  postMessage,
} from './conversation-service.ts'

// The conversation of a request (docs/decisions/048): who may read and write it, the files a
// message may carry, what waits for staff, read marks (the grouped e-mail:
// server/conversation-emails.db.test.ts).

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user', language: 'es' },
    { ...base, id: bruno.id, name: 'Bruno', email: 'bruno@example.com', role: 'user' },
    { ...base, id: admin.id, name: 'Akiko', email: 'admin@example.com', role: 'admin', language: 'en' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator', language: 'es' },
  ])
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const owner = { kind: 'request' as const, id: quoted.requestId }
  const file = (bytes: Uint8Array | Buffer, name: string, type: string) =>
    new File([new Uint8Array(bytes)], name, { type })
  return { db, pool, orders, owner, quoted, file }
}

test('a customer asks with a photo, staff answer: who wrote what and when, what was read, what waits', async () => {
  const { db, orders, owner, quoted, file } = await setup()
  const photo = file(await plainPng(), 'talla.png', 'image/png')
  const asked = await postMessage(
    orders.as(ana),
    owner,
    { body: '¿La talla M es esta? https://shop.example/talla' },
    [photo],
  )

  const [stored] = await db.select().from(conversationAttachments)
  expect(stored).toMatchObject({ contentType: 'image/webp', position: 1 })
  const served = await getConversationAttachment(orders.as(admin), stored?.id ?? '')
  expect(served.contentType).toBe('image/webp')
  expect(Buffer.from(served.bytes).subarray(8, 12).toString('latin1')).toBe('WEBP')

  // Waiting for staff, oldest first, in staff's list; staff were told in the app, not yet by e-mail.
  const waiting = await listWaitingConversations(orders.as(moderator))
  expect(waiting).toMatchObject([
    {
      id: asked.conversationId,
      kind: 'request',
      number: quoted.requestNumber,
      customerName: 'Ana Pérez',
      assignedTo: null,
    },
  ])
  const staffRows = await db.select().from(notifications).where(eq(notifications.type, 'customer_message'))
  expect(staffRows.map((row) => row.userId).sort()).toEqual([admin.id, moderator.id])

  // Staff open it: read. The customer sees "read" on her message.
  const staffView = await openConversation(orders.as(admin), owner)
  expect(staffView.side).toBe('staff')
  expect(staffView.messages).toHaveLength(1)
  const anaView = await openConversation(orders.as(ana), owner)
  expect(anaView.messages[0]).toMatchObject({ side: 'customer', authorName: 'Ana Pérez', readByOther: true })

  await assignConversation(orders.as(moderator), asked.conversationId, 'me')
  expect((await listWaitingConversations(orders.as(admin)))[0]?.assignedTo).toEqual({
    id: moderator.id,
    name: 'Mod',
  })

  // The answer: no longer waiting; the customer is told in the app (type new_message).
  await postMessage(orders.as(moderator), owner, { body: 'Sí, es la M.' })
  expect(await listWaitingConversations(orders.as(admin))).toEqual([])
  const [told] = await db.select().from(notifications).where(eq(notifications.type, 'new_message'))
  expect(told).toMatchObject({ userId: ana.id, link: `/user-dashboard/requests/${owner.id}#conversation` })
  const staffAgain = await openConversation(orders.as(admin), owner)
  expect(staffAgain.messages[1]).toMatchObject({ side: 'staff', authorName: 'Mod', readByOther: false })
  expect(staffAgain.assignedTo).toEqual({ id: moderator.id, name: 'Mod' })
  await openConversation(orders.as(ana), owner)
  expect((await openConversation(orders.as(admin), owner)).messages[1]?.readByOther).toBe(true)
  // Opening it read her notice of the answer, and each staff member's own notice when they opened it.
  const readAt = async (type: string, userId: string) =>
    (await db.select().from(notifications).where(eq(notifications.type, type))).find(
      (row) => row.userId === userId,
    )?.readAt ?? null
  expect(await readAt('new_message', ana.id)).not.toBeNull()
  expect(await readAt('customer_message', admin.id)).not.toBeNull()
  expect(await readAt('customer_message', moderator.id)).toBeNull()
})

test('who may read and write: the customer only their own, staff every one, nobody signed out', async () => {
  const { db, orders, owner } = await setup()
  expect(await refusal(openConversation(orders.as(null), owner))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(postMessage(orders.as(null), owner, { body: 'hola' }))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await refusal(openConversation(orders.as(bruno), owner))).toMatchObject({ code: 'not_found' })
  expect(await refusal(postMessage(orders.as(bruno), owner, { body: 'hola' }))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(openConversation(orders.as(ana), { kind: 'request', id: 'nope' }))).toMatchObject({
    code: 'not_found',
  })
  expect(
    await refusal(postMessage(orders.as(ana), { kind: 'shipment', id: owner.id }, { body: 'x' })),
  ).toMatchObject({ code: 'not_found' })
  expect(await db.select().from(conversations)).toEqual([])

  await postMessage(orders.as(ana), owner, { body: 'Hola' }, [
    new File([PDF], 'r.pdf', { type: 'application/pdf' }),
  ])
  const [pdf] = await db.select().from(conversationAttachments)
  expect(pdf?.contentType).toBe('application/pdf')
  expect(await refusal(getConversationAttachment(orders.as(bruno), pdf?.id ?? ''))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(getConversationAttachment(orders.as(null), pdf?.id ?? ''))).toMatchObject({
    code: 'unauthorized',
  })
  expect((await getConversationAttachment(orders.as(ana), pdf?.id ?? '')).contentType).toBe('application/pdf')
  expect((await getConversationAttachment(orders.as(moderator), pdf?.id ?? '')).contentType).toBe(
    'application/pdf',
  )

  expect(await refusal(listWaitingConversations(orders.as(ana)))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(assignConversation(orders.as(ana), pdf?.id ?? '', 'me'))).toMatchObject({
    code: 'forbidden',
  })
  expect(
    await refusal(assignConversation(orders.as(admin), '00000000-0000-4000-8000-000000000000', 'me')),
  ).toMatchObject({ code: 'not_found' })
})

test('bad messages are refused with their field and nothing is written', async () => {
  const { db, orders, owner, file } = await setup()
  const png = await plainPng()
  const refused = (body: string, files: File[] = []) =>
    refusal(postMessage(orders.as(ana), owner, { body }, files)).then((answer) => answer.fields)
  expect(await refused('   \n ')).toEqual({ body: ['empty'] })
  expect(await refused('x'.repeat(4001))).toEqual({ body: ['tooLong'] })
  const five = Array.from({ length: 5 }, (_, index) => file(png, `p${index}.png`, 'image/png'))
  expect(await refused('fotos', five)).toEqual({ files: ['tooManyFiles'] })
  expect(
    await refused('svg', [
      file(new TextEncoder().encode('<svg onload="alert(1)"/>'), 'x.svg', 'image/svg+xml'),
    ]),
  ).toEqual({ files: ['fileType'] })
  expect(
    await refused('html', [file(new TextEncoder().encode('<html>hi</html>'), 'r.pdf', 'application/pdf')]),
  ).toEqual({ files: ['fileType'] })
  expect(
    await refused('pdf y foto', [file(PDF, 'a.pdf', 'application/pdf'), file(png, 'p.png', 'image/png')]),
  ).toEqual({ files: ['pdfAlone'] })
  expect(
    await refused('roto', [file(new TextEncoder().encode('%PDF-1.7 no end'), 'a.pdf', 'application/pdf')]),
  ).toEqual({ files: ['fileCorrupt'] })
  const big = new Uint8Array(5 * 1024 * 1024 + 1)
  big.set(PDF.subarray(0, 9))
  expect(await refused('grande', [file(big, 'big.pdf', 'application/pdf')])).toEqual({
    files: ['fileTooLarge'],
  })
  expect(await db.select().from(conversationMessages)).toEqual([])
  expect(await db.select().from(conversations)).toEqual([])

  // Exactly 4,000 characters, hostile text kept as text (rendering never reads it as HTML).
  const text = `<script>alert(1)</script>${'x'.repeat(4000 - 25)}`
  await postMessage(orders.as(ana), owner, { body: text })
  const [message] = await db.select().from(conversationMessages)
  expect(message?.body).toBe(text)
})

test('a shipment has its own conversation: its customer and staff only, links to the shipment pages', async () => {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const { shipment } = await fixtures.requestedShipment(db, pool, orders)
  const owner = { kind: 'shipment' as const, id: shipment.id }
  await postMessage(orders.as(fixtures.ana), owner, { body: '¿Pueden quitar las cajas?' })
  expect(await refusal(openConversation(orders.as(fixtures.bruno), owner))).toMatchObject({
    code: 'not_found',
  })
  expect(await listWaitingConversations(orders.as(fixtures.moderator))).toMatchObject([
    { kind: 'shipment', orderId: shipment.id, number: shipment.number },
  ])
  const [staffNotice] = await db
    .select()
    .from(notifications)
    .where(eq(notifications.type, 'customer_message'))
  expect(staffNotice?.link).toBe(`/admin-dashboard/shipments/${shipment.id}#conversation`)
  await postMessage(orders.as(fixtures.moderator), owner, { body: 'Sí, sin cajas.' })
  const [told] = await db.select().from(notifications).where(eq(notifications.type, 'new_message'))
  expect(told?.link).toBe(`/user-dashboard/shipments/${shipment.id}#conversation`)
  expect(
    (await openConversation(orders.as(fixtures.ana), owner)).messages.map((message) => message.side),
  ).toEqual(['customer', 'staff'])
})

test('a customer who floods a conversation gets 429 messageTooMany after 20 in ten minutes; staff are not limited', async () => {
  const { db, orders, owner } = await setup()
  for (let i = 0; i < 20; i++) await postMessage(orders.as(ana), owner, { body: `hola ${i}` })
  expect(await refusal(postMessage(orders.as(ana), owner, { body: 'una más' }))).toMatchObject({
    code: 'rate_limited',
    reason: 'messageTooMany',
  })
  // Staff still answer.
  for (let i = 0; i < 21; i++) await postMessage(orders.as(admin), owner, { body: `respuesta ${i}` })
  const rows = await db.select().from(conversationMessages)
  expect(rows.filter((row) => row.authorSide === 'customer')).toHaveLength(20)
  expect(rows.filter((row) => row.authorSide === 'staff')).toHaveLength(21)
})

test('a right-to-left override cannot turn a link around on screen: bidi controls are dropped', async () => {
  const { db, orders, owner } = await setup()
  await postMessage(orders.as(ana), owner, {
    body: 'Factura: https://evil.example/\u202Efdp.exe \u2066ok\u2069',
  })
  const [row] = await db.select().from(conversationMessages)
  expect(row?.body).toBe('Factura: https://evil.example/fdp.exe ok')
})
