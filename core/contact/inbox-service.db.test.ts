import { expect, test } from 'vitest'
import { AppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { InboxQuerySchema } from './inbox-schemas.ts'
import {
  countOpenContactMessages,
  getContactMessage,
  INBOX_PAGE_SIZE,
  listContactMessages,
  setContactMessageHandled,
} from './inbox-service.ts'

// The staff contact inbox on a real database: paging, filters, who may do what.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const admin = await insertPasswordAccount(pool, { email: 'boss@example.com', name: 'Boss', role: 'admin' })
  const adminActor: Actor = { id: admin.id, role: 'admin' }
  /** Inserts a message received `minutesAgo` minutes ago; returns its id. */
  const insert = async (
    name: string,
    { minutesAgo = 0, spam = false, at }: { minutesAgo?: number; spam?: boolean; at?: string } = {},
  ) => {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO contact_messages (name, email, subject, message, language, is_spam, forward_status, created_at)
       VALUES ($1, $2, 'order', $3, 'es', $4, $5, coalesce($6::timestamptz, now() - make_interval(mins => $7)))
       RETURNING id`,
      [
        name,
        `${name.toLowerCase()}@example.com`,
        `Hola, soy ${name}`,
        spam,
        spam ? 'skipped' : 'not_configured',
        at ?? null,
        minutesAgo,
      ],
    )
    return rows[0]?.id as string
  }
  return { db, pool, admin, adminActor, insert }
}

const query = (raw: Record<string, string> = {}) => InboxQuerySchema.parse(raw)

test('the inbox lists open messages newest first, 20 a page, every message once across pages', async () => {
  const { db, adminActor, insert } = await setup()
  const ids: string[] = []
  for (let i = 0; i < 45; i++) ids.push(await insert(`Person${i}`, { minutesAgo: 100 - i }))
  // Two messages received at the very same instant: the id decides, and neither is skipped.
  const same = '2026-11-01T00:00:00.000001Z'
  ids.unshift(await insert('TwinA', { at: same }), await insert('TwinB', { at: same }))

  const seen: string[] = []
  let after: string | undefined
  const sizes: number[] = []
  for (;;) {
    const page = await listContactMessages({ db, actor: adminActor }, query(after ? { after } : {}))
    sizes.push(page.items.length)
    seen.push(...page.items.map((item) => item.id))
    const times = page.items.map((item) => item.receivedAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    if (!page.nextCursor) break
    after = page.nextCursor
  }
  expect(sizes).toEqual([INBOX_PAGE_SIZE, INBOX_PAGE_SIZE, 7])
  expect(new Set(seen).size).toBe(47)
  expect(seen[0]).toBe(ids.at(-1))
  expect(seen.slice(-2).sort()).toEqual(ids.slice(0, 2).sort())
})

test('handled messages move to the handled filter with who and when; reopening brings them back; spam is hidden unless asked', async () => {
  const { db, pool, admin, adminActor, insert } = await setup()
  const first = await insert('Ana', { minutesAgo: 2 })
  const second = await insert('Luis', { minutesAgo: 1 })
  const spam = await insert('Bot', { spam: true })
  const ctx = { db, actor: adminActor }

  const names = async (raw: Record<string, string>) =>
    (await listContactMessages(ctx, query(raw))).items.map((item) => item.name)
  expect(await names({})).toEqual(['Luis', 'Ana'])
  expect(await names({ spam: '1' })).toEqual(['Bot'])
  expect(await countOpenContactMessages(ctx)).toBe(2)

  const handled = await setContactMessageHandled(ctx, first, { intent: 'handle' })
  expect(handled.handledAt).toBeInstanceOf(Date)
  expect(await names({})).toEqual(['Luis'])
  expect(await names({ status: 'handled' })).toEqual(['Ana'])
  expect(await countOpenContactMessages(ctx)).toBe(1)
  const message = await getContactMessage(ctx, first)
  expect(message).toMatchObject({
    name: 'Ana',
    email: 'ana@example.com',
    message: 'Hola, soy Ana',
    handledBy: { id: admin.id, name: 'Boss', email: 'boss@example.com' },
  })
  expect(message.handledAt?.getTime()).toBe(handled.handledAt?.getTime())

  // Marked again, by another admin: the first who and when stay.
  const other = await insertPasswordAccount(pool, { email: 'other@example.com', role: 'admin' })
  const again = await setContactMessageHandled({ db, actor: { id: other.id, role: 'admin' } }, first, {
    intent: 'handle',
  })
  expect(again.handledAt?.getTime()).toBe(handled.handledAt?.getTime())
  expect((await getContactMessage(ctx, first)).handledBy?.id).toBe(admin.id)

  await setContactMessageHandled(ctx, first, { intent: 'reopen' })
  expect(await names({})).toEqual(['Luis', 'Ana'])
  expect(await getContactMessage(ctx, first)).toMatchObject({ handledAt: null, handledBy: null })
  expect(await getContactMessage(ctx, spam)).toMatchObject({ isSpam: true })
  expect(second).not.toBe(first)
})

test('anonymous callers, customers and moderators are refused reading and handling; an admin is not', async () => {
  const { db, pool, adminActor, insert } = await setup()
  const id = await insert('Ana')
  const moderator = await insertPasswordAccount(pool, { email: 'mod@example.com', role: 'moderator' })
  const customer = await insertPasswordAccount(pool, { email: 'cus@example.com' })
  for (const actor of [
    null,
    { id: customer.id, role: 'user' },
    { id: moderator.id, role: 'moderator' },
  ] as const) {
    const ctx = { db, actor }
    for (const attempt of [
      () => listContactMessages(ctx, query()),
      () => countOpenContactMessages(ctx),
      () => getContactMessage(ctx, id),
      () => setContactMessageHandled(ctx, id, { intent: 'handle' }),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(AppError)
      expect(error).toMatchObject({ code: 'forbidden', details: { reason: 'staffOnlyInbox' } })
    }
  }
  const { rows } = await pool.query('SELECT handled_at FROM contact_messages WHERE id = $1', [id])
  expect(rows[0].handled_at).toBeNull()
  expect((await listContactMessages({ db, actor: adminActor }, query())).items).toHaveLength(1)
})

test('a message that does not exist is not found, to read or to handle', async () => {
  const { db, adminActor } = await setup()
  const ctx = { db, actor: adminActor }
  const missing = '0f8fad5b-d9cb-469f-a165-70867728950e'
  await expect(getContactMessage(ctx, missing)).rejects.toMatchObject({ code: 'not_found' })
  await expect(setContactMessageHandled(ctx, missing, { intent: 'handle' })).rejects.toMatchObject({
    code: 'not_found',
  })
})
