import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import {
  getInvoice,
  japanYear,
  listRequestInvoices,
  takeInvoiceNumber,
} from '#core/billing/invoice-service.ts'
import { createAddress } from '#core/customers/profile-service.ts'
import { MAX_ITEM_PRICE_JPY, MAX_TOTAL_JPY } from '#core/pricing/pricing.ts'
import { priceQuote } from '#core/pricing/quote-pricing.ts'
import { seedImportRules } from '#core/seed/seed-database.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { createDb } from '#db/client.ts'
import {
  invoiceLines,
  invoices,
  notifications,
  orderEvents,
  purchaseRequests,
  requestItems,
  users,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import {
  addNote,
  approveQuote,
  getQuoteDraft,
  rejectRequest,
  reviseQuote,
  saveQuoteDraft,
} from './quote-service.ts'
import { cancelRequest, getRequest, submitRequest } from './request-service.ts'

// The staff side of a request against a real database: pricing, approving (an invoice with a
// gapless number and frozen lines), rejecting, revising, notes; who may do each; what two
// clicks at once do.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup() {
  const { db, pool, url } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
    { ...base, id: admin.id, name: 'Admin', email: 'admin@example.com', role: 'admin' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
  ])
  /** A request from Ana with these quantities; its id, item ids and version. */
  const newRequest = async (quantities: number[] = [2, 1], locale: 'es' | 'en' = 'es') => {
    const { id } = await submitRequest(
      orders.as(ana),
      {
        items: quantities.map((quantity, index) => ({
          url: `https://jp.mercari.com/item/m${index}`,
          quantity,
        })),
      },
      { locale },
    )
    const items = await db
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(eq(requestItems.requestId, id))
      .orderBy(requestItems.position)
    return { id, itemIds: items.map((item) => item.id), version: await versionOf(id) }
  }
  const versionOf = async (id: string) =>
    (
      await db
        .select({ version: purchaseRequests.version })
        .from(purchaseRequests)
        .where(eq(purchaseRequests.id, id))
    )[0]?.version ?? -1
  /** Prices every item (2,500 × qty with 800 shipping on the first) as a moderator. */
  const price = async (request: { id: string; itemIds: string[] }, actor: Actor = moderator) =>
    saveQuoteDraft(orders.as(actor), {
      id: request.id,
      version: await versionOf(request.id),
      items: request.itemIds.map((itemId, index) => ({
        id: itemId,
        title: `Figure ${index + 1}`,
        unitPrice: index === 0 ? '2,500' : '¥1.234',
        domesticShipping: index === 0 ? '800' : '',
      })),
    })
  const counts = async () => ({
    invoices: (await db.select().from(invoices)).length,
    lines: (await db.select().from(invoiceLines)).length,
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
  })
  return { db, pool, url, orders, newRequest, versionOf, price, counts }
}

test('a moderator saves prices: stored as whole yen, the version moves on, the history records it for staff only', async () => {
  const { db, orders, newRequest, price, versionOf } = await setup()
  const request = await newRequest()
  const saved = await price(request)
  expect(saved.version).toBe(request.version + 1)
  const items = await db
    .select({
      title: requestItems.title,
      unit: requestItems.unitPriceJpy,
      shipping: requestItems.domesticShippingJpy,
    })
    .from(requestItems)
    .where(eq(requestItems.requestId, request.id))
    .orderBy(requestItems.position)
  expect(items).toEqual([
    { title: 'Figure 1', unit: 2500, shipping: 800 },
    { title: 'Figure 2', unit: 1234, shipping: null },
  ])
  const staffView = await getRequest(orders.as(admin), request.id)
  expect(staffView.events.map((event) => [event.event, event.visibleToCustomer])).toEqual([
    ['submit', true],
    ['price', false],
  ])
  const customerView = await getRequest(orders.as(ana), request.id)
  expect(customerView.events.map((event) => event.event)).toEqual(['submit'])

  // The draft's totals: the engine on the saved prices, with the settings in force.
  const draft = await getQuoteDraft(orders.as(moderator), request.id)
  expect(draft.complete).toBe(true)
  expect(draft.totals).toEqual({
    itemsJpy: 2500 * 2 + 1234,
    serviceFeeJpy: 500 * 3,
    domesticShippingJpy: 800,
    taxableJpy: 6234 + 1500,
    taxJpy: 773,
    totalJpy: 7734 + 773 + 800,
  })

  // The same page posted again (its version is now old): refused, nothing changes.
  expect(
    await refusal(
      saveQuoteDraft(orders.as(admin), {
        id: request.id,
        version: request.version,
        items: [{ id: request.itemIds[0] ?? '', unitPrice: '1' }],
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'requestChanged' })
  expect(await versionOf(request.id)).toBe(saved.version)
})

test('bad prices, foreign item ids, customers and the wrong state are refused with nothing written', async () => {
  const { orders, newRequest, versionOf, counts } = await setup()
  const request = await newRequest()
  const other = await newRequest([1])
  const before = await counts()
  const post = (actor: Actor | null, items: Record<string, unknown>[]) =>
    refusal(
      saveQuoteDraft(orders.as(actor), { id: request.id, version: request.version, items: items as never }),
    )
  const first = request.itemIds[0] ?? ''
  expect(await post(moderator, [{ id: first, unitPrice: '1.5' }])).toMatchObject({
    code: 'invalid',
    fields: { 'items[0].unitPrice': ['notWhole'] },
  })
  expect(
    await post(moderator, [
      { id: first, unitPrice: '-3', domesticShipping: '2000000', title: 't'.repeat(301) },
    ]),
  ).toMatchObject({
    code: 'invalid',
    fields: {
      'items[0].unitPrice': ['negative'],
      'items[0].domesticShipping': ['shippingRange'],
      'items[0].title': ['titleTooLong'],
    },
  })
  expect(await post(moderator, [{ id: other.itemIds[0], unitPrice: '100' }])).toMatchObject({
    code: 'invalid',
    fields: { 'items[0].id': ['invalid'] },
  })
  expect(await post(moderator, [{ id: first }, { id: first }])).toMatchObject({
    code: 'invalid',
    fields: { 'items[1].id': ['invalid'] },
  })
  expect(await post(ana, [{ id: first, unitPrice: '100' }])).toMatchObject({
    code: 'forbidden',
    reason: 'staffActionForbidden',
  })
  expect(await post(null, [{ id: first, unitPrice: '100' }])).toMatchObject({ code: 'unauthorized' })
  expect(
    await refusal(
      saveQuoteDraft(orders.as(admin), {
        id: '00000000-0000-4000-8000-000000000000',
        version: 0,
        items: [{ id: first, unitPrice: '100' }],
      }),
    ),
  ).toMatchObject({ code: 'not_found' })
  expect(await counts()).toEqual(before)
  expect(await versionOf(request.id)).toBe(request.version)

  // A cancelled request's prices are fixed.
  await cancelRequest(orders.as(ana), { id: request.id, version: request.version })
  expect(await post(admin, [{ id: first, unitPrice: '100' }])).toMatchObject({
    code: 'conflict',
    reason: 'requestChanged',
  })
  expect(
    await refusal(
      saveQuoteDraft(orders.as(admin), {
        id: request.id,
        version: await versionOf(request.id),
        items: [{ id: first, unitPrice: '100' }],
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'quoteNotEditable' })
})

test('approving issues the quote: number, frozen lines and totals exactly as the engine prices them, due in 7 days, the customer told', async () => {
  const { db, pool, orders, newRequest, price, versionOf } = await setup()
  const request = await newRequest([2, 1], 'en')
  // Not every item priced yet: refused.
  await saveQuoteDraft(orders.as(moderator), {
    id: request.id,
    version: request.version,
    items: [{ id: request.itemIds[0] ?? '', title: 'Figure 1', unitPrice: '2500' }],
  })
  expect(
    await refusal(
      approveQuote(orders.as(moderator), { id: request.id, version: await versionOf(request.id) }),
    ),
  ).toMatchObject({
    code: 'conflict',
    reason: 'quoteIncomplete',
  })
  await price(request)
  const before = new Date()
  const approved = await approveQuote(orders.as(moderator), {
    id: request.id,
    version: await versionOf(request.id),
  })
  const year = Number(
    new Intl.DateTimeFormat('en', { timeZone: 'Asia/Tokyo', year: 'numeric' }).format(new Date()),
  )
  expect(approved.invoiceNumber).toBe(`${year}-000001`)

  const invoice = await getInvoice(orders.as(ana), approved.invoiceId)
  const expected = priceQuote(
    [
      {
        itemId: request.itemIds[0] ?? '',
        position: 1,
        title: 'Figure 1',
        quantity: 2,
        unitPriceJpy: 2500,
        domesticShippingJpy: 800,
      },
      {
        itemId: request.itemIds[1] ?? '',
        position: 2,
        title: 'Figure 2',
        quantity: 1,
        unitPriceJpy: 1234,
        domesticShippingJpy: 0,
      },
    ],
    { serviceFeeJpy: 500, taxRateBasisPoints: 1000 },
  )
  expect(invoice).toMatchObject({
    number: approved.invoiceNumber,
    status: 'open',
    locale: 'en',
    recipient: { name: 'Ana Pérez', email: 'ana@example.com' },
    issuer: { name: 'Demo Proxy Shopping Japan', taxRegistrationId: 'T0000000000000' },
    taxRateBasisPoints: 1000,
    serviceFeeUnitJpy: 500,
    yenRates: { USD: 0.0068, MXN: 0.13, CLP: 6.54 },
    itemsJpy: expected.itemsJpy,
    serviceFeeJpy: expected.serviceFeeJpy,
    domesticShippingJpy: 800,
    taxableJpy: expected.taxableJpy,
    taxJpy: expected.taxJpy,
    totalJpy: expected.totalJpy,
    replacesNumber: null,
  })
  expect(invoice.lines).toEqual(expected.lines.map(({ itemId: _, ...line }) => line))
  expect(invoice.dueAt.getTime() - invoice.issuedAt.getTime()).toBe(7 * 86_400_000)
  expect(invoice.issuedAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000)

  const [row] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, request.id))
  expect(row).toMatchObject({ status: 'quoted', version: approved.version })
  expect(row?.quotedAt?.getTime()).toBe(invoice.issuedAt.getTime())
  expect(row?.quoteExpiresAt?.getTime()).toBe(invoice.dueAt.getTime())
  const statuses = await db
    .select({ status: requestItems.status })
    .from(requestItems)
    .where(eq(requestItems.requestId, request.id))
  expect(statuses.map((item) => item.status)).toEqual(['quoted', 'quoted'])

  const [notice] = await db.select().from(notifications).where(eq(notifications.type, 'quote_ready'))
  expect(notice).toMatchObject({
    userId: ana.id,
    tone: 'success',
    link: `/user-dashboard/requests/${request.id}`,
    params: {
      invoice: approved.invoiceNumber,
      totalJpy: expected.totalJpy,
      dueDate: invoice.dueAt.toISOString(),
    },
  })
  expect(await countJobs(pool, 'notification.email')).toBe(2)
  const history = await getRequest(orders.as(ana), request.id)
  expect(history.events.at(-1)).toMatchObject({
    event: 'quote',
    fromStatus: 'submitted',
    toStatus: 'quoted',
    data: { invoiceNumber: approved.invoiceNumber, totalJpy: expected.totalJpy },
  })
  const invoiceEvents = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.entityId, approved.invoiceId))
  expect(invoiceEvents.map((event) => [event.entityType, event.event, event.toStatus])).toEqual([
    ['invoice', 'issue', 'open'],
  ])

  // Approving again (a replay, the next version or the old): refused, still one invoice.
  expect(
    await refusal(approveQuote(orders.as(admin), { id: request.id, version: approved.version })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'requestChanged',
  })
  expect((await db.select().from(invoices)).length).toBe(1)
})

test('an issued invoice is frozen: a later fee change does not alter it, and the database refuses changes to amounts and lines', async () => {
  const { pool, orders, newRequest, price, versionOf } = await setup()
  const request = await newRequest([1])
  await price(request)
  const approved = await approveQuote(orders.as(admin), {
    id: request.id,
    version: await versionOf(request.id),
  })
  const issued = await getInvoice(orders.as(admin), approved.invoiceId)

  await orders.settings.update({
    serviceFeeJpy: 900,
    taxRate: 0.08,
    yenRates: { USD: 0.01, MXN: 0.2, CLP: 7 },
  })
  expect(await getInvoice(orders.as(admin), approved.invoiceId)).toEqual(issued)
  // A draft priced now would use the new fee; the issued quote does not.
  const draft = await getQuoteDraft(orders.as(admin), request.id)
  expect(draft.pricing.serviceFeeJpy).toBe(900)

  await expect(
    pool.query('UPDATE invoices SET total_jpy = total_jpy + 1, tax_jpy = tax_jpy + 1 WHERE id = $1', [
      approved.invoiceId,
    ]),
  ).rejects.toThrow(/frozen/)
  await expect(
    pool.query(`UPDATE invoices SET issuer = '{"name":"x"}' WHERE id = $1`, [approved.invoiceId]),
  ).rejects.toThrow(/frozen/)
  await expect(
    pool.query('UPDATE invoice_lines SET amount_jpy = 1, unit_price_jpy = 1 WHERE invoice_id = $1', [
      approved.invoiceId,
    ]),
  ).rejects.toThrow()
  // Its status may move (what the machine does).
  await pool.query(`UPDATE invoices SET status = 'void', voided_at = now() WHERE id = $1`, [
    approved.invoiceId,
  ])
  expect(await getInvoice(orders.as(admin), approved.invoiceId)).toMatchObject({
    status: 'void',
    totalJpy: issued.totalJpy,
  })
})

test('revising voids the open quote and reopens pricing; approving again issues a new number that replaces it', async () => {
  const { db, orders, newRequest, price, versionOf } = await setup()
  const request = await newRequest([1])
  await price(request)
  const first = await approveQuote(orders.as(moderator), {
    id: request.id,
    version: await versionOf(request.id),
  })
  const revised = await reviseQuote(orders.as(moderator), { id: request.id, version: first.version })
  expect(revised.voidedInvoiceNumber).toBe(first.invoiceNumber)
  const [row] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, request.id))
  expect(row).toMatchObject({ status: 'submitted', quotedAt: null, quoteExpiresAt: null })
  expect(await getInvoice(orders.as(ana), first.invoiceId)).toMatchObject({
    status: 'void',
    voidedAt: expect.any(Date),
  })
  // The customer is told the quote they may have open can no longer be paid.
  const told = await db.select().from(notifications).where(eq(notifications.type, 'quote_revised'))
  expect(told).toHaveLength(1)
  expect(told[0]).toMatchObject({
    userId: ana.id,
    requestId: request.id,
    params: { number: expect.stringMatching(/^PR-\d{6}$/), invoice: first.invoiceNumber },
  })

  await saveQuoteDraft(orders.as(moderator), {
    id: request.id,
    version: revised.version,
    items: [{ id: request.itemIds[0] ?? '', title: 'Figure 1 (new price)', unitPrice: '3000' }],
  })
  const second = await approveQuote(orders.as(moderator), {
    id: request.id,
    version: await versionOf(request.id),
  })
  expect(Number(second.invoiceNumber.slice(-6))).toBe(Number(first.invoiceNumber.slice(-6)) + 1)
  expect(await getInvoice(orders.as(ana), second.invoiceId)).toMatchObject({
    status: 'open',
    replacesNumber: first.invoiceNumber,
    itemsJpy: 3000,
    lines: [{ kind: 'item', description: 'Figure 1 (new price)' }, { kind: 'service_fee' }],
  })
  expect(await getInvoice(orders.as(ana), first.invoiceId)).toMatchObject({
    replacedByNumber: second.invoiceNumber,
  })
  expect(
    (await listRequestInvoices(orders.as(ana), request.id)).map((invoice) => [
      invoice.number,
      invoice.status,
    ]),
  ).toEqual([
    [second.invoiceNumber, 'open'],
    [first.invoiceNumber, 'void'],
  ])
  const events = await getRequest(orders.as(ana), request.id)
  expect(events.events.map((event) => event.event)).toEqual(['submit', 'quote', 'requote', 'quote'])

  // Cancelling the quoted request voids its open quote too.
  await cancelRequest(orders.as(ana), { id: request.id, version: second.version })
  expect(await getInvoice(orders.as(ana), second.invoiceId)).toMatchObject({ status: 'void' })
})

test('rejecting needs a reason, closes the request and tells the customer why', async () => {
  const { db, orders, newRequest, counts } = await setup()
  const request = await newRequest([1])
  const before = await counts()
  expect(
    await refusal(
      rejectRequest(orders.as(moderator), { id: request.id, version: request.version, reason: '  ' }),
    ),
  ).toMatchObject({
    code: 'invalid',
    fields: { reason: ['reasonRequired'] },
  })
  expect(await counts()).toEqual(before)
  const done = await rejectRequest(orders.as(moderator), {
    id: request.id,
    version: request.version,
    reason: 'The shop does not ship to our office. <b>Sorry</b>',
  })
  const [row] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, request.id))
  expect(row).toMatchObject({ status: 'rejected', version: done.version, closedAt: expect.any(Date) })
  const view = await getRequest(orders.as(ana), request.id)
  expect(view.events.at(-1)).toMatchObject({
    event: 'reject',
    note: 'The shop does not ship to our office. <b>Sorry</b>',
  })
  const [notice] = await db.select().from(notifications).where(eq(notifications.type, 'request_rejected'))
  expect(notice?.params).toEqual({
    number: view.number,
    reason: 'The shop does not ship to our office. <b>Sorry</b>',
  })
  // Once rejected, nothing else: approve, reject again, revise.
  expect(
    await refusal(
      rejectRequest(orders.as(admin), { id: request.id, version: done.version, reason: 'again' }),
    ),
  ).toMatchObject({
    code: 'conflict',
    reason: 'requestChanged',
  })
  expect(
    await refusal(approveQuote(orders.as(admin), { id: request.id, version: done.version })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'requestNotAllowed',
  })
  expect(
    await refusal(reviseQuote(orders.as(admin), { id: request.id, version: done.version })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'requestNotAllowed',
  })
})

test('notes: internal ones stay with staff; notes for the customer reach their timeline and notifications', async () => {
  const { db, orders, newRequest } = await setup()
  const request = await newRequest([1])
  const internal = await addNote(orders.as(moderator), {
    id: request.id,
    version: request.version,
    text: 'Seller answers slowly',
    visibility: 'internal',
  })
  const shared = await addNote(orders.as(admin), {
    id: request.id,
    version: internal.version,
    text: 'Which colour would you like?',
    visibility: 'customer',
  })
  expect(shared.version).toBe(request.version + 2)
  const staffView = await getRequest(orders.as(moderator), request.id)
  expect(
    staffView.events
      .filter((event) => event.event === 'note')
      .map((event) => [event.note, event.visibleToCustomer]),
  ).toEqual([
    ['Seller answers slowly', false],
    ['Which colour would you like?', true],
  ])
  const customerView = await getRequest(orders.as(ana), request.id)
  expect(customerView.events.map((event) => event.note)).toEqual([null, 'Which colour would you like?'])
  const sent = await db.select().from(notifications).where(eq(notifications.type, 'staff_message'))
  expect(sent.map((notice) => notice.params)).toEqual([
    { number: customerView.number, message: 'Which colour would you like?' },
  ])
  // A double click on the same form: the second finds the version moved.
  expect(
    await refusal(
      addNote(orders.as(admin), {
        id: request.id,
        version: internal.version,
        text: 'x',
        visibility: 'customer',
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'requestChanged' })
  expect(
    await refusal(
      addNote(orders.as(ana), { id: request.id, version: shared.version, text: 'x', visibility: 'internal' }),
    ),
  ).toMatchObject({
    code: 'forbidden',
  })
})

test('every role against every staff action: customers (owner or not) are refused each one with nothing changed; moderators and admins may', async () => {
  const { orders, newRequest, price, versionOf, counts } = await setup()
  // A priced request still being quoted, and a quoted one, prepared by an admin.
  const pending = await newRequest([1])
  await price(pending, admin)
  const quoted = await newRequest([1])
  await price(quoted, admin)
  await approveQuote(orders.as(admin), { id: quoted.id, version: await versionOf(quoted.id) })
  const actions = {
    save: async (actor: Actor) =>
      saveQuoteDraft(orders.as(actor), {
        id: pending.id,
        version: await versionOf(pending.id),
        items: [{ id: pending.itemIds[0] ?? '', title: 'T', unitPrice: '999' }],
      }),
    note: async (actor: Actor) =>
      addNote(orders.as(actor), {
        id: pending.id,
        version: await versionOf(pending.id),
        text: 'n',
        visibility: 'internal',
      }),
    draft: async (actor: Actor) => getQuoteDraft(orders.as(actor), pending.id),
    revise: async (actor: Actor) =>
      reviseQuote(orders.as(actor), { id: quoted.id, version: await versionOf(quoted.id) }),
    approve: async (actor: Actor) =>
      approveQuote(orders.as(actor), { id: pending.id, version: await versionOf(pending.id) }),
    reject: async (actor: Actor) =>
      rejectRequest(orders.as(actor), { id: quoted.id, version: await versionOf(quoted.id), reason: 'r' }),
  }
  const before = {
    counts: await counts(),
    pending: await versionOf(pending.id),
    quoted: await versionOf(quoted.id),
  }
  for (const actor of [ana, bruno]) {
    for (const [name, action] of Object.entries(actions)) {
      expect(await refusal(action(actor)), `${actor.id} ${name}`).toMatchObject({
        code: 'forbidden',
        reason: 'staffActionForbidden',
      })
    }
  }
  expect({
    counts: await counts(),
    pending: await versionOf(pending.id),
    quoted: await versionOf(quoted.id),
  }).toEqual(before)
  // In this order every action applies: save, note, read, revise the quoted one, approve the
  // pending one, reject the revised one.
  for (const actor of [moderator, admin]) {
    if (actor === admin) {
      // Back to the starting states for the second round.
      await reviseQuote(orders.as(admin), { id: pending.id, version: await versionOf(pending.id) })
      const again = await newRequest([1])
      await price(again, admin)
      await approveQuote(orders.as(admin), { id: again.id, version: await versionOf(again.id) })
      Object.assign(quoted, again)
    }
    for (const [name, action] of Object.entries(actions)) {
      await expect(action(actor), `${actor.id} ${name}`).resolves.toBeDefined()
    }
  }
})

test('invoices: their customer and staff read them; another customer or a made-up id gets not found', async () => {
  const { orders, newRequest, price, versionOf } = await setup()
  const request = await newRequest([1])
  await price(request)
  const { invoiceId } = await approveQuote(orders.as(admin), {
    id: request.id,
    version: await versionOf(request.id),
  })
  expect(await getInvoice(orders.as(ana), invoiceId)).toMatchObject({ id: invoiceId })
  expect(await getInvoice(orders.as(moderator), invoiceId)).toMatchObject({ id: invoiceId })
  for (const id of [invoiceId, '00000000-0000-4000-8000-000000000000', 'not-an-id', "1' or '1'='1"]) {
    expect(await refusal(getInvoice(orders.as(bruno), id))).toMatchObject({
      code: 'not_found',
      reason: 'invoiceNotFound',
    })
  }
  expect(await refusal(getInvoice(orders.as(null), invoiceId))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(listRequestInvoices(orders.as(bruno), request.id))).toMatchObject({
    code: 'not_found',
  })
  expect(await listRequestInvoices(orders.as(moderator), request.id)).toHaveLength(1)
})

test('two approvals of the same page at once: one invoice, one number; the other is told the request changed', async () => {
  const { db, orders, newRequest, price, versionOf } = await setup()
  const request = await newRequest([1])
  await price(request)
  const version = await versionOf(request.id)
  const results = await Promise.allSettled([
    approveQuote(orders.as(admin), { id: request.id, version }),
    approveQuote(orders.as(moderator), { id: request.id, version }),
    approveQuote(orders.as(admin), { id: request.id, version }),
  ])
  const fulfilled = results.filter((result) => result.status === 'fulfilled')
  expect(fulfilled).toHaveLength(1)
  for (const result of results) {
    if (result.status === 'rejected') expect(isAppError(result.reason, 'conflict')).toBe(true)
  }
  expect((await db.select().from(invoices)).map((invoice) => invoice.sequence)).toEqual([1])
  expect((await db.select().from(notifications).where(eq(notifications.type, 'quote_ready'))).length).toBe(1)
  const [counter] = (await db.execute(sql`select last_number from invoice_counters`)).rows
  expect(counter).toEqual({ last_number: 1 })
})

test('numbers stay gapless when 20 requests are approved in parallel, and a failed issue gives its number back', async () => {
  const { url, orders, newRequest, price, versionOf } = await setup()
  const requests = []
  for (let index = 0; index < 20; index++) {
    const request = await newRequest([1])
    await price(request)
    requests.push({ ...request, version: await versionOf(request.id) })
  }
  // A pool as large as the batch, so the 20 transactions really run at once.
  const wide = createDb(url, { max: 21 })
  try {
    const context = { ...orders.as(admin), db: wide.db }
    // An issue that fails after taking its number (rolled back) gives it back.
    const year = japanYear(new Date())
    await expect(
      wide.db.transaction(async (tx) => {
        expect(await takeInvoiceNumber(tx, year)).toEqual({ sequence: 1, number: `${year}-000001` })
        throw new Error('the issue failed')
      }),
    ).rejects.toThrow('the issue failed')
    const results = await Promise.allSettled(
      requests.map((request) => approveQuote(context, { id: request.id, version: request.version })),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(20)
    const numbers = await wide.db.select({ sequence: invoices.sequence, year: invoices.year }).from(invoices)
    expect(numbers.map((row) => row.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    )
    expect(new Set(numbers.map((row) => row.year)).size).toBe(1)
  } finally {
    await wide.pool.end()
  }
})

test('a quote whose total no payment could take is refused at approval, with nothing issued', async () => {
  const { orders, newRequest, versionOf, counts } = await setup()
  // Ten of an item at the largest price: ¥110,000,000 with the fee and tax, above ¥99,999,999.
  const request = await newRequest([10])
  await saveQuoteDraft(orders.as(moderator), {
    id: request.id,
    version: request.version,
    items: [{ id: request.itemIds[0] ?? '', title: 'Statue', unitPrice: String(MAX_ITEM_PRICE_JPY) }],
  })
  const before = await counts()
  expect(
    await refusal(
      approveQuote(orders.as(moderator), { id: request.id, version: await versionOf(request.id) }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'quoteTooLarge' })
  expect(await counts()).toEqual(before)
  // Nine of them fit.
  const smaller = await newRequest([9])
  await saveQuoteDraft(orders.as(moderator), {
    id: smaller.id,
    version: smaller.version,
    items: [{ id: smaller.itemIds[0] ?? '', title: 'Statue', unitPrice: String(MAX_ITEM_PRICE_JPY) }],
  })
  const approved = await approveQuote(orders.as(moderator), {
    id: smaller.id,
    version: await versionOf(smaller.id),
  })
  const invoice = await getInvoice(orders.as(ana), approved.invoiceId)
  expect(invoice.totalJpy).toBeLessThanOrEqual(MAX_TOTAL_JPY)
})

test('the quote-ready notification carries the import estimate for the customer’s country; none without an address (issue 30)', async () => {
  const { db, orders, newRequest, price, versionOf } = await setup()
  await seedImportRules(db)
  const quoted = async () => {
    const request = await newRequest([2, 1])
    await price(request)
    await approveQuote(orders.as(moderator), { id: request.id, version: await versionOf(request.id) })
    const told = await db.select().from(notifications).where(eq(notifications.type, 'quote_ready'))
    return told.at(-1)?.params ?? {}
  }
  // No address yet: nothing to estimate for.
  expect(await quoted()).not.toHaveProperty('importJpy')
  await createAddress(orders.as(ana), {
    fullName: 'Ana Pérez',
    street: 'Av. Providencia 1234',
    city: 'Santiago',
    region: 'RM',
    postalCode: '7500000',
    country: 'CL',
    phone: '+56 2 2345 6789',
    makeDefault: true,
  })
  // Goods at the quoted prices (2 × ¥2,500 + ¥1,234), not the fee or the shipping in Japan: 19 % IVA.
  expect(await quoted()).toMatchObject({
    importJpy: Math.floor(((2 * 2500 + 1234) * 1900) / 10_000 + 0.5),
    importCountry: 'CL',
    importCollector: 'customs',
  })
})
