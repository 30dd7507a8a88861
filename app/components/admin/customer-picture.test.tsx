import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { MemoryRouter } from 'react-router'
import { expect, test } from 'vitest'
import { getServerI18n } from '#app/i18n.server.ts'
import { CustomerPictureSections, PictureTotals } from './customer-picture.tsx'

// The customer's picture on the staff user page (issue 34): every heading and label in words in
// both languages (no raw keys), links to each staff page, tables in a sideways-scrolling box, an
// empty line per empty section and "newest N of M" when a list is cut.

type Props = Parameters<typeof CustomerPictureSections>[0]['picture']

const full: Props = {
  totals: {
    paidJpy: 16550,
    refundedJpy: 300,
    paid: 'JPY 16,550',
    refunded: 'JPY 300',
    requests: 60,
    shipments: 1,
    storedItems: 1,
    balanceJpy: 2600,
    balance: 'JPY 2,600',
  },
  requests: {
    total: 60,
    rows: [
      { id: 'r1', number: 'PR-000001', status: 'paid', submittedAt: new Date(0), dateLabel: 'Jan 1, 2026' },
    ],
  },
  shipments: {
    total: 1,
    rows: [
      {
        id: 's1',
        number: 'SH-000001',
        status: 'shipped',
        method: 'express',
        requestedAt: new Date(0),
        dateLabel: 'Jan 2, 2026',
      },
    ],
  },
  storedItems: {
    total: 1,
    rows: [
      {
        id: 'i1',
        title: null,
        url: 'https://jp.mercari.com/item/m1',
        position: 2,
        requestId: 'r1',
        requestNumber: 'PR-000001',
        arrivedLabel: 'Jan 3, 2026',
        freeUntilLabel: 'February 1, 2026',
        expired: true,
      },
    ],
  },
  addresses: {
    total: 1,
    rows: [
      {
        id: 'a1',
        fullName: 'Ana Pérez',
        street: 'Av. Larco 123',
        city: 'Lima',
        region: 'Lima',
        postalCode: '15074',
        country: 'PE',
        phone: '+51 1 234 5678',
        isDefault: true,
      },
    ],
  },
  money: {
    total: 2,
    rows: [
      {
        kind: 'refund',
        id: 'f1',
        invoiceId: 'v1',
        invoiceNumber: '2026-000001',
        provider: 'manual',
        amount: 'JPY 300',
        dateLabel: 'Jan 4, 2026',
        status: 'done',
      },
      {
        kind: 'payment',
        id: 'p1',
        invoiceId: 'v1',
        invoiceNumber: '2026-000001',
        provider: 'stripe',
        amount: 'JPY 16,550',
        dateLabel: 'Jan 3, 2026',
        status: 'succeeded',
      },
    ],
  },
  conversations: {
    total: 1,
    rows: [
      {
        id: 'c1',
        kind: 'shipment',
        orderId: 's1',
        number: 'SH-000001',
        messages: 3,
        lastLabel: 'Jan 5, 2026',
        waitingLabel: 'Jan 5, 2026',
      },
    ],
  },
}

const empty: Props = {
  totals: {
    paidJpy: 0,
    refundedJpy: 0,
    paid: 'JPY 0',
    refunded: 'JPY 0',
    requests: 0,
    shipments: 0,
    storedItems: 0,
    balanceJpy: 0,
    balance: 'JPY 0',
  },
  requests: { total: 0, rows: [] },
  shipments: { total: 0, rows: [] },
  storedItems: { total: 0, rows: [] },
  addresses: { total: 0, rows: [] },
  money: { total: 0, rows: [] },
  conversations: { total: 0, rows: [] },
}

const render = (language: 'es' | 'en', picture: Props) =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: getServerI18n(language, ['common', 'admin']) },
      createElement(
        MemoryRouter,
        null,
        createElement(PictureTotals, { totals: picture.totals }),
        createElement(CustomerPictureSections, { picture }),
      ),
    ),
  )

test('every section has a heading, its rows link to the staff pages, and tables scroll inside their box', () => {
  const html = render('en', full)
  expect(html.match(/<h2 /g)).toHaveLength(7)
  for (const text of [
    'Lifetime totals',
    'Paid in all',
    'JPY 16,550',
    'Requests (60)',
    'Showing the newest 1 of 60.',
    'href="/admin-dashboard/requests/r1"',
    'href="/admin-dashboard/shipments/s1"',
    'Express (EMS)',
    'Item 2',
    '(ended)',
    'Default',
    'href="/admin-dashboard/invoices/v1"',
    'Sent back',
    'Stripe',
    'Conversations (1)',
    'href="/admin-dashboard/shipments/s1#conversation"',
    'Shipment SH-000001',
    'Waiting for us since',
  ])
    expect(html).toContain(text)
  expect(html.match(/overflow-x-auto/g)).toHaveLength(5)
  for (const language of ['en', 'es'] as const) {
    expect(render(language, full)).not.toMatch(/customerPicture\.|payments\.|staffShipments\.|queue\./)
  }
  expect(render('es', full)).toContain('Pagos y reembolsos (2)')
})

test('an empty customer reads one line per section, in both languages', () => {
  const en = render('en', empty)
  for (const line of [
    'No requests yet.',
    'No shipments yet.',
    'No items at the office.',
    'No addresses saved.',
    'No payments or refunds yet.',
    'No conversations yet.',
  ])
    expect(en).toContain(line)
  expect(en).not.toContain('<table')
  expect(render('es', empty)).toContain('Todavía no hay envíos.')
  expect(render('es', empty)).toContain('Todavía no hay conversaciones.')
})
