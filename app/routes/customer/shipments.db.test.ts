import { expect, test } from 'vitest'
import { createAddress } from '#core/customers/profile-service.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import { PACKING_FORM_BODY_BYTES } from '#core/shipping/shipment-schemas.ts'
import { bookArrival } from '#core/warehouse/arrival-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { seedAsInstalled } from '#tests/support/seeded.ts'
import * as staffCreditNotePage from '../admin/credit-note.tsx'
import * as staffShipment from '../admin/shipment.tsx'
import * as staffQueue from '../admin/shipments.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import * as creditNotePage from './credit-note.tsx'
import { middleware as customerMiddleware } from './layout.tsx'
import * as shipmentPage from './shipment.tsx'
import * as shipping from './shipping.tsx'

// The shipping tab's form, a shipment's page and the staff's shipment pages, called as the
// server would (through their branch's middleware) for every role, with good and bad input.

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const people = {
    owner: await signedInCaller(pool, { email: 'ana@example.com' }),
    other: await signedInCaller(pool, { email: 'bruno@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const as = (person: { id: string }, role: 'user' | 'admin' | 'moderator' = 'user') => ({
    db,
    actor: { id: person.id, role },
    ...services.orders,
  })
  const quoted = await insertQuotedRequest(pool, { userId: people.owner.id })
  await recordManualPayment(as(people.admin, 'admin'), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: 'BANK 1',
  })
  const version = (
    await pool.query('SELECT version FROM purchase_requests WHERE id = $1', [quoted.requestId])
  ).rows[0].version
  await bookArrival(as(people.moderator, 'moderator'), {
    id: quoted.requestId,
    version,
    items: [{ id: quoted.itemIds[0], received: 'on', weight: '600' }],
    shelf: 'C-4',
  })
  const item = quoted.itemIds[0] as string
  const address = await createAddress(as(people.owner), {
    fullName: 'Ana Pérez',
    street: 'Av. Providencia 1234',
    city: 'Santiago',
    region: 'RM',
    postalCode: '7500000',
    country: 'CL',
    phone: '+56 2 2345 6789',
    makeDefault: false,
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
  const staff = (request: Request, handler: (args: never) => unknown, params: Record<string, string> = {}) =>
    callRoute(services, staffMiddleware, request, (args) => handler(args as never), {
      params,
      context: { language: 'en' },
    })
  const post = (fields: Record<string, string>, cookie?: string) =>
    customer(formPost('/user-dashboard/shipping', fields, { cookie }), shipping.action)
  const count = async () => (await pool.query('SELECT count(*)::int AS n FROM shipments')).rows[0].n as number
  return { pool, people, item, addressId: address.id, customer, staff, post, count }
}

test('the owner sees the estimate, asks to ship and finds the shipment; nobody else can see or cancel it', async () => {
  const { people, item, addressId, customer, staff, post, count } = await setup()
  const cookie = people.owner.cookie
  const estimate = await post({ intent: 'estimate', items: item, addressId, method: 'economic' }, cookie)
  expect(estimate.status).toBe(200)
  expect(estimate.data).toMatchObject({
    estimate: { ok: true, weight: '800 g', deliveryTime: 'economic', route: 'direct', country: 'Chile' },
  })
  expect(await count()).toBe(0)
  const asked = await post({ intent: 'request', items: item, addressId, method: 'economic' }, cookie)
  expect(asked.status).toBe(302)
  const location = asked.headers.get('location') ?? ''
  expect(location).toMatch(/^\/user-dashboard\/shipments\/[0-9a-f-]{36}$/)
  expect(redirectOf(asked).notice).toEqual({ name: 'shipmentRequested' })
  const id = location.split('/').at(-1)?.split('?')[0] ?? ''
  const page = (who?: string) =>
    customer(pageRequest(`/user-dashboard/shipments/${id}`, { cookie: who }), shipmentPage.loader, { id })
  expect(await page(cookie)).toMatchObject({
    status: 200,
    data: { shipment: { status: 'requested', lines: [{ id: item }] } },
  })
  expect((await page(people.other.cookie)).status).toBe(404)
  expect((await page(undefined)).status).toBe(401)
  const tab = await customer(pageRequest('/user-dashboard/shipping', { cookie }), shipping.loader)
  expect(tab.data).toMatchObject({
    items: [{ id: item, shipment: { id } }],
    shipments: [{ id, status: 'requested' }],
  })

  // Staff: the queue and the page (with the shelf); customers are refused the staff pages.
  const queue = (who?: string) =>
    staff(pageRequest('/admin-dashboard/shipments?status=requested', { cookie: who }), staffQueue.loader)
  expect(await queue(people.moderator.cookie)).toMatchObject({ status: 200, data: { rows: [{ id }] } })
  expect((await queue(people.owner.cookie)).status).toBe(403)
  expect((await queue(undefined)).status).toBe(401)
  const detail = await staff(
    pageRequest(`/admin-dashboard/shipments/${id}`, { cookie: people.admin.cookie }),
    staffShipment.loader,
    { id },
  )
  expect(detail).toMatchObject({ status: 200, data: { shipment: { lines: [{ shelf: 'C-4' }] } } })
  expect(
    (
      await staff(
        pageRequest('/admin-dashboard/shipments?status=bogus', { cookie: people.admin.cookie }),
        staffQueue.loader,
      )
    ).status,
  ).toBe(400)

  // Cancelling: another customer gets "not found" and nothing changes; the owner cancels.
  const cancel = (who: string | undefined, version: string, confirm: string | null = 'yes') =>
    customer(
      formPost(
        `/user-dashboard/shipments/${id}`,
        { intent: 'cancel', version, ...(confirm === null ? {} : { confirm }) },
        { cookie: who },
      ),
      shipmentPage.action,
      { id },
    )
  expect((await cancel(people.other.cookie, '0')).status).toBe(404)
  expect((await cancel(people.other.cookie, '0', null)).status).toBe(404)
  expect((await cancel(cookie, '9')).status).toBe(409)
  // Without the confirmation (a page skipped, a hand-made post): refused on its field, nothing done.
  const unconfirmed = await cancel(cookie, '0', null)
  expect(unconfirmed.status).toBe(400)
  expect(unconfirmed.data).toMatchObject({
    messageKey: 'errors.reasons.actionNotConfirmed',
    fieldErrors: { confirm: ['confirmRequired'] },
  })
  expect(await page(cookie)).toMatchObject({ data: { shipment: { status: 'requested' } } })
  const done = await cancel(cookie, '0')
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toEqual({
    location: `/user-dashboard/shipments/${id}`,
    notice: { name: 'shipmentCancelled' },
  })
})

test('bad input on the shipping form: 4xx with the field that is wrong, nothing written', async () => {
  const { people, item, addressId, post, count } = await setup()
  const cookie = people.owner.cookie
  const cases: [Record<string, string>, number, Record<string, string[]>][] = [
    [{ intent: 'request', addressId, method: 'economic' }, 400, { items: ['noItems'] }],
    [{ intent: 'request', items: item, method: 'economic' }, 400, { addressId: ['addressRequired'] }],
    [{ intent: 'request', items: item, addressId, method: '<script>' }, 400, { method: ['invalid'] }],
    [
      { intent: 'request', items: '00000000-0000-4000-8000-000000000000', addressId, method: 'express' },
      409,
      { items: ['itemNotShippable'] },
    ],
    [
      {
        intent: 'request',
        items: item,
        addressId: '00000000-0000-4000-8000-000000000000',
        method: 'express',
      },
      404,
      { addressId: ['addressNotFound'] },
    ],
  ]
  for (const [fields, status, errors] of cases) {
    const answer = await post(fields, cookie)
    expect(answer.status, JSON.stringify(fields)).toBe(status)
    expect((answer.data as { errors: Record<string, string[]> }).errors).toMatchObject(errors)
  }
  // Another customer posting the owner's item: refused as not theirs.
  expect(
    (await post({ intent: 'request', items: item, addressId, method: 'economic' }, people.other.cookie))
      .status,
  ).toBe(409)
  expect((await post({ intent: 'request', items: item, addressId, method: 'economic' })).status).toBe(401)
  expect(await count()).toBe(0)
})

test('staff pack through their page (customers refused), the customer sees the box and the receipt to pay, an admin records the transfer', async () => {
  const { pool, people, item, addressId, customer, staff, post } = await setup()
  const asked = await post(
    { intent: 'request', items: item, addressId, method: 'economic' },
    people.owner.cookie,
  )
  const id = (asked.headers.get('location') ?? '').split('/').at(-1)?.split('?')[0] ?? ''
  const staffPost = (who: string | undefined, fields: Record<string, string>) => {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.set(name, value)
    return staff(formPost(`/admin-dashboard/shipments/${id}`, form, { cookie: who }), staffShipment.action, {
      id,
    })
  }
  const pack = { intent: 'pack', version: '0', weight: '950' }
  expect((await staffPost(people.owner.cookie, pack)).status).toBe(403)
  expect((await staffPost(undefined, pack)).status).toBe(401)
  const bad = await staffPost(people.moderator.cookie, { ...pack, weight: '3 kg' })
  expect(bad.status).toBe(400)
  expect(bad.data).toMatchObject({ intent: 'pack', result: { error: { weight: ['weightWhole'] } } })
  // A photo over the limit: its own message on the photo field, no other field's, and the
  // shipment is not touched (the unread form was once taken for a cancel, ADR 038).
  const big = new FormData()
  for (const [name, value] of Object.entries(pack)) big.set(name, value)
  big.set(
    'photos',
    new File([new Uint8Array(PACKING_FORM_BODY_BYTES + 1024)], 'box.jpg', { type: 'image/jpeg' }),
  )
  const tooLarge = await staff(
    formPost(`/admin-dashboard/shipments/${id}`, big, { cookie: people.moderator.cookie }),
    staffShipment.action,
    { id },
  )
  expect(tooLarge).toMatchObject({
    status: 413,
    data: {
      intent: 'pack',
      result: { error: { '': ['errors.reasons.shipmentInvalid'], photos: ['photoTooLarge'] } },
    },
  })
  expect(Object.keys((tooLarge.data as { result: { error: object } }).result.error)).toEqual(['', 'photos'])
  const tooHeavy = await staffPost(people.moderator.cookie, { ...pack, weight: '2500' })
  expect(tooHeavy.status).toBe(400)
  expect(tooHeavy.data).toMatchObject({ result: { error: { weight: ['packedTooHeavy.economic'] } } })
  const packed = await staffPost(people.moderator.cookie, pack)
  expect(packed.status).toBe(302)
  expect(redirectOf(packed)).toEqual({
    location: `/admin-dashboard/shipments/${id}`,
    notice: { name: 'shipmentPacked' },
  })
  // Packed without a photo of the box: the customer's texts do not ask to look at one (ADR 038).
  const told = await pool.query(`SELECT params FROM notifications WHERE type = 'shipment_packed'`)
  expect(told.rows.map((row) => row.params.variant)).toEqual(['noPhoto'])

  const page = await customer(
    pageRequest(`/user-dashboard/shipments/${id}`, { cookie: people.owner.cookie }),
    shipmentPage.loader,
    { id },
  )
  expect(page).toMatchObject({
    status: 200,
    data: {
      shipment: { status: 'packed' },
      box: { weight: '950 g', photo: null, receipt: { number: expect.stringMatching(/^\d{4}-\d{6}$/) } },
      payment: { invoice: { status: 'open' }, canPay: true },
    },
  })
  const invoiceId = (page.data as { payment: { invoice: { id: string } } }).payment.invoice.id
  // No provider is configured here: paying by card is refused with a message, nothing charged.
  const pay = await customer(
    formPost(
      `/user-dashboard/shipments/${id}`,
      { intent: 'pay', invoiceId, provider: 'paypal' },
      {
        cookie: people.owner.cookie,
      },
    ),
    shipmentPage.action,
    { id },
  )
  expect(pay.status).toBe(400)
  // A moderator may pack but not record money; an admin records the bank transfer.
  const transfer = { intent: 'record_payment', invoiceId, version: '0', amountJpy: '', reference: 'BANK SH' }
  const staffPage = await staff(
    pageRequest(`/admin-dashboard/shipments/${id}`, { cookie: people.admin.cookie }),
    staffShipment.loader,
    { id },
  )
  const total = (staffPage.data as { payments: { invoice: { totalLabel: string } } }).payments.invoice
    .totalLabel
  expect((await staffPost(people.moderator.cookie, { ...transfer, amountJpy: total })).status).toBe(403)
  const recorded = await staffPost(people.admin.cookie, { ...transfer, amountJpy: total })
  expect(recorded.status).toBe(302)
  expect(redirectOf(recorded)).toEqual({
    location: `/admin-dashboard/shipments/${id}`,
    notice: { name: 'shippingPaymentRecorded' },
  })
  expect(
    await customer(
      pageRequest(`/user-dashboard/shipments/${id}`, { cookie: people.owner.cookie }),
      shipmentPage.loader,
      { id },
    ),
  ).toMatchObject({
    data: { shipment: { status: 'paid' }, payment: { invoice: { status: 'paid' }, canPay: false } },
  })
})

test('after payment: staff ship with tracking, the customer follows it and reports it lost; an admin confirms the loss', async () => {
  const { pool, people, item, addressId, customer, staff, post } = await setup()
  const asked = await post(
    { intent: 'request', items: item, addressId, method: 'express' },
    people.owner.cookie,
  )
  const id = (asked.headers.get('location') ?? '').split('/').at(-1)?.split('?')[0] ?? ''
  const staffPost = (who: string | undefined, fields: Record<string, string>) =>
    staff(formPost(`/admin-dashboard/shipments/${id}`, fields, { cookie: who }), staffShipment.action, { id })
  const ownerPost = (who: string | undefined, fields: Record<string, string>) =>
    customer(formPost(`/user-dashboard/shipments/${id}`, fields, { cookie: who }), shipmentPage.action, {
      id,
    })
  const version = async () =>
    String((await pool.query('SELECT version FROM shipments WHERE id = $1', [id])).rows[0].version)
  expect(
    (await staffPost(people.moderator.cookie, { intent: 'pack', version: '0', weight: '900' })).status,
  ).toBe(302)
  const { rows } = await pool.query(`SELECT id, total_jpy FROM invoices WHERE shipment_id = $1`, [id])
  expect(
    (
      await staffPost(people.admin.cookie, {
        intent: 'record_payment',
        invoiceId: rows[0].id,
        version: '0',
        amountJpy: String(rows[0].total_jpy),
        reference: 'BANK SH',
      })
    ).status,
  ).toBe(302)

  // Shipping: customers refused; a number with a typo comes back on its field.
  const ship = {
    intent: 'ship',
    version: await version(),
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  }
  expect((await staffPost(people.owner.cookie, ship)).status).toBe(403)
  const typo = await staffPost(people.moderator.cookie, { ...ship, trackingNumber: 'EE123456786JP' })
  expect(typo.status).toBe(400)
  expect(typo.data).toMatchObject({ intent: 'ship', fieldErrors: { trackingNumber: ['trackingCheckDigit'] } })
  expect(redirectOf(await staffPost(people.moderator.cookie, ship))).toEqual({
    location: `/admin-dashboard/shipments/${id}`,
    notice: { name: 'shipmentShipped' },
  })
  const page = async () =>
    customer(
      pageRequest(`/user-dashboard/shipments/${id}`, { cookie: people.owner.cookie }),
      shipmentPage.loader,
      {
        id,
      },
    )
  expect((await page()).data).toMatchObject({
    shipment: { status: 'shipped' },
    tracking: {
      carrierName: 'Japan Post',
      number: 'EE123456785JP',
      url: expect.stringContaining('EE123456785JP'),
    },
    claimable: true,
    claimFrom: expect.any(String),
    claim: null,
  })
  // Too early to report it lost: refused, nothing written.
  const early = await ownerPost(people.owner.cookie, { intent: 'claim', version: await version() })
  expect(early.status).toBe(409)
  expect(early.data).toMatchObject({ messageKey: 'errors.reasons.claimNotYet' })
  // A month and more later (the setting says 30 days).
  await pool.query(`UPDATE shipments SET shipped_at = now() - interval '31 days' WHERE id = $1`, [id])
  expect((await page()).data).toMatchObject({ claimable: true, claimFrom: null })
  expect((await ownerPost(people.other.cookie, { intent: 'claim', version: await version() })).status).toBe(
    404,
  )
  const claimed = await ownerPost(people.owner.cookie, {
    intent: 'claim',
    version: await version(),
    note: 'No llegó',
  })
  expect(redirectOf(claimed)).toEqual({
    location: `/user-dashboard/shipments/${id}`,
    notice: { name: 'parcelClaimed' },
  })
  const claimId = (await pool.query('SELECT id FROM claims WHERE shipment_id = $1', [id])).rows[0]
    .id as string

  // Staff: the reference; a moderator cannot confirm a loss (money), an admin can.
  const investigate = { intent: 'investigate', claimId, version: '0', carrierReference: 'JP-77', note: '' }
  expect((await staffPost(people.owner.cookie, investigate)).status).toBe(403)
  expect((await staffPost(people.moderator.cookie, investigate)).status).toBe(302)
  const lost = {
    intent: 'resolve',
    claimId,
    version: '1',
    resolution: 'lost',
    reason: 'Japan Post: lost in transit',
  }
  expect((await staffPost(people.moderator.cookie, lost)).status).toBe(403)
  const noReason = await staffPost(people.admin.cookie, { ...lost, reason: '  ' })
  expect(noReason.status).toBe(400)
  expect(noReason.data).toMatchObject({ intent: 'resolve', fieldErrors: { reason: ['reasonRequired'] } })
  expect((await staffPost(people.admin.cookie, lost)).status).toBe(302)
  expect((await page()).data).toMatchObject({
    shipment: { status: 'lost' },
    claim: { status: 'lost', refund: expect.stringContaining('2,500') },
  })
})

test('money and destructive actions through the pages: confirmed or refused, with the amounts to confirm; credit notes for their owner and staff only', async () => {
  const { pool, people, item, addressId, customer, staff, post } = await setup()
  // The item has been at the office 40 days: 11 days of storage at ¥100, plus tax.
  await pool.query(`UPDATE request_items SET received_at = now() - interval '40 days' WHERE id = $1`, [item])
  const tab = await customer(
    pageRequest('/user-dashboard/shipping', { cookie: people.owner.cookie }),
    shipping.loader,
  )
  expect(tab.data).toMatchObject({ items: [{ id: item, storageFee: { days: 11, feeJpy: 1100 } }] })
  const estimate = await post(
    { intent: 'estimate', items: item, addressId, method: 'economic' },
    people.owner.cookie,
  )
  expect(estimate.data).toMatchObject({
    estimate: {
      ok: true,
      breakdown: { storage: [{ id: item, days: 11, feePerDayJpy: 100 }], storageFeeJpy: 1100, taxJpy: 110 },
    },
  })
  const asked = await post(
    { intent: 'request', items: item, addressId, method: 'economic' },
    people.owner.cookie,
  )
  const id = (asked.headers.get('location') ?? '').split('/').at(-1)?.split('?')[0] ?? ''
  const staffPost = (who: string | undefined, fields: Record<string, string>) =>
    staff(formPost(`/admin-dashboard/shipments/${id}`, fields, { cookie: who }), staffShipment.action, { id })
  const version = async () =>
    String((await pool.query('SELECT version FROM shipments WHERE id = $1', [id])).rows[0].version)
  const invoicesNow = async () =>
    (
      await pool.query('SELECT id, number, status FROM invoices WHERE shipment_id = $1 ORDER BY sequence', [
        id,
      ])
    ).rows as { id: string; number: string; status: string }[]

  // Packing at another price: the first post answers with the receipt's amounts, nothing issued.
  const pack = { intent: 'pack', version: '0', weight: '800', price: '3900', reason: 'Agreed by WhatsApp' }
  const unconfirmed = await staffPost(people.moderator.cookie, pack)
  expect(unconfirmed.status).toBe(400)
  expect(unconfirmed.data).toMatchObject({
    intent: 'pack',
    result: { error: { confirm: ['confirmRequired'] } },
    preview: {
      price: 'JPY\u00a03,900',
      storage: 'JPY\u00a01,100',
      tax: 'JPY\u00a0110',
      total: 'JPY\u00a05,110',
    },
  })
  expect(await invoicesNow()).toEqual([])
  expect((await staffPost(people.moderator.cookie, { ...pack, confirm: 'yes' })).status).toBe(302)
  const [receipt] = await invoicesNow()

  // The customer's page explains the receipt: the box's shipping, the storage days, the tax.
  const page = await customer(
    pageRequest(`/user-dashboard/shipments/${id}`, { cookie: people.owner.cookie }),
    shipmentPage.loader,
    { id },
  )
  expect(page.data).toMatchObject({
    costs: {
      estimate: { storageFeeJpy: 1100, taxJpy: 110 },
      receipt: {
        number: receipt?.number,
        breakdown: {
          shippingJpy: 3900,
          storage: [{ days: 11, feePerDayJpy: 100 }],
          taxJpy: 110,
          totalJpy: 5110,
        },
      },
      documents: [{ kind: 'receipt', number: receipt?.number, status: 'open' }],
    },
  })

  // Re-issuing: admins only; the first post shows what would happen, the confirmed one does it.
  const reissue = { intent: 'reissue', version: await version(), price: '3500', reason: 'Overcharged' }
  expect((await staffPost(people.owner.cookie, reissue)).status).toBe(403)
  expect((await staffPost(undefined, reissue)).status).toBe(401)
  expect((await staffPost(people.moderator.cookie, { ...reissue, confirm: 'yes' })).status).toBe(403)
  const preview = await staffPost(people.admin.cookie, reissue)
  expect(preview.status).toBe(400)
  expect(preview.data).toMatchObject({
    intent: 'reissue',
    preview: { outcome: 'replace', number: receipt?.number, old: 'JPY\u00a05,110', total: 'JPY\u00a04,710' },
  })
  expect((await invoicesNow()).map((row) => row.status)).toEqual(['open'])
  const reissued = await staffPost(people.admin.cookie, { ...reissue, confirm: 'yes' })
  expect(redirectOf(reissued)).toEqual({
    location: `/admin-dashboard/shipments/${id}`,
    notice: { name: 'receiptReissued' },
  })
  const [, replacement] = await invoicesNow()
  expect((await invoicesNow()).map((row) => row.status)).toEqual(['void', 'open'])

  // Paid, then re-issued lower: a credit note, readable by its customer and staff only.
  const recorded = await staffPost(people.admin.cookie, {
    intent: 'record_payment',
    invoiceId: replacement?.id ?? '',
    version: '0',
    amountJpy: '4710',
    reference: 'BANK CN',
  })
  expect(recorded.status).toBe(302)
  expect(
    (
      await staffPost(people.admin.cookie, {
        intent: 'reissue',
        version: await version(),
        price: '3000',
        reason: 'Economy, not EMS',
        confirm: 'yes',
      })
    ).status,
  ).toBe(302)
  const noteId = (await pool.query('SELECT id FROM credit_notes')).rows[0].id as string
  const notePage = (who: string | undefined) =>
    customer(pageRequest(`/user-dashboard/credit-notes/${noteId}`, { cookie: who }), creditNotePage.loader, {
      id: noteId,
    })
  expect(await notePage(people.owner.cookie)).toMatchObject({
    status: 200,
    data: { note: { reason: 'Economy, not EMS', totalJpy: 4710, invoice: { number: replacement?.number } } },
  })
  expect((await notePage(people.other.cookie)).status).toBe(404)
  expect((await notePage(undefined)).status).toBe(401)
  const staffNote = (who: string | undefined) =>
    staff(
      pageRequest(`/admin-dashboard/credit-notes/${noteId}`, { cookie: who }),
      staffCreditNotePage.loader,
      {
        id: noteId,
      },
    )
  expect((await staffNote(people.moderator.cookie)).status).toBe(200)
  expect((await staffNote(people.owner.cookie)).status).toBe(403)
  const after = await customer(
    pageRequest(`/user-dashboard/shipments/${id}`, { cookie: people.owner.cookie }),
    shipmentPage.loader,
    { id },
  )
  expect(
    (after.data as { costs: { documents: { kind: string; status: string | null }[] } }).costs.documents.map(
      (document) => [document.kind, document.status],
    ),
  ).toEqual([
    ['receipt', 'void'],
    ['receipt', 'paid'],
    ['creditNote', null],
    ['receipt', 'paid'],
  ])
})
