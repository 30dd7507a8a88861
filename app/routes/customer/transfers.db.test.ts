import { expect, test } from 'vitest'
import { formatMoney } from '#core/money/money.ts'
import { transferNotices } from '#db/schema/index.ts'
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
import { middleware as adminMiddleware } from '../admin/layout.tsx'
import { loader as paymentsLoader } from '../admin/payments.tsx'
import { action as staffRequestAction, loader as staffRequestLoader } from '../admin/request.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import { middleware } from './layout.tsx'
import { action as requestAction, loader as requestLoader } from './request.tsx'
import { loader as proofLoader } from './transfer-proof.ts'

// "I have paid" through the request page, its proof,
// and the staff's side of it (payments to confirm, "not arrived"): docs/decisions/036.

const yen = (amount: number, language: 'es' | 'en') => formatMoney(amount, 'JPY', language)
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n')

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const customer = (
    request: Request,
    handler: (args: never) => unknown,
    params = {},
    language: 'es' | 'en' = 'en',
  ) =>
    callRoute(services, middleware, request, (args) => handler(args as never), {
      params,
      context: { language },
    })
  const report = (id: string, form: FormData, cookie?: string) =>
    customer(formPost(`/user-dashboard/requests/${id}`, form, { cookie }), requestAction, { id })
  const view = (id: string, cookie?: string) =>
    customer(pageRequest(`/user-dashboard/requests/${id}`, { cookie }), requestLoader, { id })
  const proof = (id: string, cookie?: string) =>
    customer(pageRequest(`/user-dashboard/transfer-proofs/${id}`, { cookie }), proofLoader, { id })
  const toConfirm = (cookie?: string) =>
    callRoute(services, adminMiddleware, pageRequest('/admin-dashboard/payments', { cookie }), (args) =>
      paymentsLoader(args as never),
    )
  const staffPost = (id: string, fields: Record<string, string>, cookie?: string) =>
    callRoute(
      services,
      staffMiddleware,
      formPost(`/admin-dashboard/requests/${id}`, fields, { cookie }),
      (args) => staffRequestAction(args as never),
      { params: { id } },
    )
  const staffView = (id: string, cookie?: string) =>
    callRoute(
      services,
      staffMiddleware,
      pageRequest(`/admin-dashboard/requests/${id}`, { cookie }),
      (args) => staffRequestLoader(args as never),
      { params: { id } },
    )
  return { db, pool, signedIn, report, view, proof, toConfirm, staffPost, staffView }
}

function transferForm(invoiceId: string, proof?: File, note = '') {
  const form = new FormData()
  form.set('intent', 'report_transfer')
  form.set('invoiceId', invoiceId)
  form.set('note', note)
  form.set('proof', proof ?? new File([], '', { type: 'application/octet-stream' }))
  return form
}

test('"I have paid" through the request page: the notice, then the page says it is checked', async () => {
  const { db, pool, signedIn, report, view, proof } = await setup()
  const ana = await signedIn('ana@example.com')
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const before = (await view(quoted.requestId, ana.cookie)).data as { payment: Record<string, unknown> }
  expect(before.payment).toMatchObject({ canReportTransfer: true, transferReported: null })

  // Anonymous: refused before the action; a bad proof: the form's field error, nothing written.
  expect((await report(quoted.requestId, transferForm(quoted.invoiceId))).status).toBe(401)
  const svg = new File(['<svg onload="alert(1)"/>'], 'x.svg', { type: 'image/svg+xml' })
  const refused = await report(quoted.requestId, transferForm(quoted.invoiceId, svg), ana.cookie)
  expect(refused.status).toBe(400)
  expect(refused.data).toMatchObject({
    intent: 'report_transfer',
    result: { error: { proof: ['proofType'] } },
  })
  expect(await db.select().from(transferNotices)).toEqual([])

  const sent = await report(
    quoted.requestId,
    transferForm(
      quoted.invoiceId,
      new File([PDF], 'recibo.pdf', { type: 'application/pdf' }),
      'Ana P., Banco X',
    ),
    ana.cookie,
  )
  expect(sent.status).toBe(302)
  expect(redirectOf(sent)).toEqual({
    location: `/user-dashboard/requests/${quoted.requestId}`,
    notice: { name: 'transferReported' },
  })
  const [notice] = await db.select().from(transferNotices)
  const after = (await view(quoted.requestId, ana.cookie)).data as {
    payment: Record<string, unknown>
    notice: string
  }
  expect(after.payment).toMatchObject({
    canPay: false,
    canReportTransfer: false,
    transferReported: { proofHref: `/user-dashboard/transfer-proofs/${notice?.id}` },
  })

  // The proof: a download, sandboxed, to its customer and staff only.
  const served = await proof(notice?.id ?? '', ana.cookie)
  expect(served.status).toBe(200)
  expect(served.headers.get('content-type')).toBe('application/pdf')
  expect(served.headers.get('content-disposition')).toMatch(
    /^attachment; filename="\d{4}-\d{6}-transfer\.pdf"$/,
  )
  expect(served.headers.get('content-security-policy')).toContain('sandbox')
  expect(served.headers.get('x-content-type-options')).toBe('nosniff')
  const admin = await signedIn('boss@example.com', 'admin')
  expect((await proof(notice?.id ?? '', admin.cookie)).status).toBe(200)
  const bruno = await signedIn('bruno@example.com')
  expect((await proof(notice?.id ?? '', bruno.cookie)).status).toBe(404)
  expect((await proof(notice?.id ?? '')).status).toBe(401)
})

test('a proof over the limit is a 413 with the field’s message, before anything is read into the service', async () => {
  const { db, pool, signedIn, report } = await setup()
  const ana = await signedIn('ana@example.com')
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const big = new File([new Uint8Array(6 * 1024 * 1024)], 'big.pdf', { type: 'application/pdf' })
  const answer = await report(quoted.requestId, transferForm(quoted.invoiceId, big), ana.cookie)
  expect(answer.status).toBe(413)
  expect(answer.data).toMatchObject({
    intent: 'report_transfer',
    result: { error: { proof: ['proofTooLarge'] } },
  })
  expect(await db.select().from(transferNotices)).toEqual([])
})

test('staff: payments to confirm for admins only; "not arrived" from the request page, admins only', async () => {
  const { db, pool, signedIn, report, toConfirm, staffPost, staffView } = await setup()
  const ana = await signedIn('ana@example.com')
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  await report(quoted.requestId, transferForm(quoted.invoiceId), ana.cookie)
  const [notice] = await db.select().from(transferNotices)

  expect(await toConfirm()).toMatchObject({ status: 401 })
  expect(await toConfirm(ana.cookie)).toMatchObject({ status: 403 })
  const moderator = await signedIn('mod@example.com', 'moderator')
  expect(await toConfirm(moderator.cookie)).toMatchObject({ status: 403 })
  const admin = await signedIn('boss@example.com', 'admin')
  const listed = await toConfirm(admin.cookie)
  expect(listed.status).toBe(200)
  expect(listed.data).toMatchObject({
    held: [],
    reported: [
      {
        id: notice?.id,
        href: `/admin-dashboard/requests/${quoted.requestId}`,
        ownerNumber: quoted.requestNumber,
        askedLabel: yen(7400, 'es'),
        proof: null,
        invoiceOpen: true,
      },
    ],
  })
  // The staff request page shows the customer's word beside "record a bank transfer".
  expect((await staffView(quoted.requestId, moderator.cookie)).data).toMatchObject({
    payments: {
      transfers: [{ id: notice?.id, status: 'pending' }],
      canDismissTransfer: false,
      canRecord: false,
    },
  })
  expect((await staffView(quoted.requestId, admin.cookie)).data).toMatchObject({
    payments: { canDismissTransfer: true, canRecord: true },
  })

  const fields = {
    intent: 'dismiss_transfer',
    noticeId: notice?.id ?? '',
    version: '0',
    reason: 'Nothing arrived.',
  }
  expect((await staffPost(quoted.requestId, fields, moderator.cookie)).status).toBe(403)
  const empty = await staffPost(quoted.requestId, { ...fields, reason: '' }, admin.cookie)
  expect(empty.status).toBe(400)
  expect(empty.data).toMatchObject({
    intent: 'dismiss_transfer',
    result: { error: { reason: ['reasonRequired'] } },
  })
  const done = await staffPost(quoted.requestId, fields, admin.cookie)
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toEqual({
    location: `/admin-dashboard/requests/${quoted.requestId}`,
    notice: { name: 'transferDismissed' },
  })
  const [after] = await db.select().from(transferNotices)
  expect(after).toMatchObject({ status: 'dismissed', dismissReason: 'Nothing arrived.' })
  expect(await toConfirm(admin.cookie)).toMatchObject({ data: { reported: [] } })
})
