import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, describe as group, test } from 'vitest'
import { getServerI18n } from '#app/i18n.server.ts'
import enAdmin from '#app/locales/en/admin.ts'
import esAdmin from '#app/locales/es/admin.ts'
import { AUDIT_FIELDS, AUDIT_KINDS, type AuditKind, type PATH_AUDIT_KINDS } from '#core/audit/audit-kinds.ts'
import { formatMoney } from '#core/money/money.ts'
import { ITEM_STATUSES } from '#core/orders/item-machine.ts'
import { PAYMENT_STATUSES } from '#core/payments/payment-machine.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { SHIPMENT_STATUSES } from '#core/shipping/shipment-machine.ts'
import { describe } from './audit-change.tsx'

// The audit page speaks people's words (ADR 038): every kind the code can write, every field a
// record can hold and every value (statuses, methods, roles) has its words in both languages,
// and no record reads as a raw key, a field name or a stored code.

const LOCALES = { en: enAdmin.audit, es: esAdmin.audit }

/** Every `kind: '…'` written by a recordAudit call in core/ (the source, not the list). */
function kindsInTheCode(): string[] {
  const found = new Set<string>()
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.ts') && !name.includes('.test.')) {
        const source = readFileSync(path, 'utf8')
        for (const call of source.split('recordAudit(').slice(1)) {
          const body = call.slice(0, 600)
          for (const match of body.matchAll(/kind:[^\n]*/g)) {
            for (const literal of match[0].matchAll(/'([a-z_]+\.[a-z_]+)'/g)) found.add(literal[1] as string)
          }
        }
      }
    }
  }
  walk(join(import.meta.dirname, '../../../core'))
  return [...found].sort()
}

test('every kind a recordAudit call writes is in AUDIT_KINDS', () => {
  const kinds = kindsInTheCode()
  expect(kinds.length).toBeGreaterThan(15)
  expect(kinds.filter((kind) => !AUDIT_KINDS.includes(kind as AuditKind))).toEqual([])
})

group.each(Object.entries(LOCALES))('%s', (_, audit) => {
  test('every kind has its label', () => {
    const missing = AUDIT_KINDS.filter((kind) => !(kind.replace('.', '_') in audit.kinds))
    expect(missing).toEqual([])
  })
  test('every field has its label, every value its words', () => {
    expect(Object.keys(AUDIT_FIELDS).filter((field) => !(field in audit.fields))).toEqual([])
    expect(ITEM_STATUSES.filter((status) => !(status in audit.statuses.item))).toEqual([])
    expect(SHIPMENT_STATUSES.filter((status) => !(status in audit.statuses.shipment))).toEqual([])
    expect(PAYMENT_STATUSES.filter((status) => !(status in audit.statuses.payment))).toEqual([])
    for (const provider of ['manual', 'paypal', 'stripe']) expect(audit.providers).toHaveProperty(provider)
  })
})

/** One record of each kind as the code writes it (the values of the walk-through). */
const SAMPLES: Record<Exclude<AuditKind, (typeof PATH_AUDIT_KINDS)[number]>, [object, object]> = {
  'role.assign': [{ role: 'user' }, { role: 'moderator' }],
  'payment.record': [
    {},
    { request: 'PR-000123', invoice: 'Q-000045', amountJpy: 18719, reference: 'BANK-1' },
  ],
  'payment.refund_done': [{ refundDueJpy: 5000 }, { refundDoneJpy: 5000, reference: 'RF-1', via: 'paypal' }],
  'payment.transfer_not_received': [
    { status: 'pending' },
    { status: 'dismissed', request: 'PR-000123', invoice: 'Q-000045', reason: 'No transfer arrived' },
  ],
  'payment.accept': [
    { status: 'held' },
    { status: 'succeeded', request: 'PR-000123', invoice: 'Q-000045', refundDueJpy: 300, note: 'ok' },
  ],
  'payment.refund': [{ status: 'held' }, { status: 'refunded', shipment: 'SH-000009', invoice: 'S-000009' }],
  'item.unavailable': [
    { item: 2, status: 'to_buy' },
    { item: 2, status: 'unavailable', refundJpy: 3850, reason: 'Sold out' },
  ],
  'item.dispose': [
    { item: 1, status: 'received' },
    { item: 1, status: 'disposed', daysOver: 31, reason: '' },
  ],
  'shipment.price_override': [
    { priceJpy: 4840 },
    { priceJpy: 4500, reason: 'Smaller box', shipment: 'SH-000009', weightG: 1250 },
  ],
  'shipment.receipt_reissue': [
    { invoice: 'S-000009', totalJpy: 4840, priceJpy: 4400 },
    {
      shipment: 'SH-000009',
      reason: 'Box re-weighed',
      priceJpy: 4000,
      previous: 'S-000009',
      previousJpy: 4840,
      invoice: 'S-000010',
      totalJpy: 4400,
      creditNote: 'CN-2026-000001',
      creditAppliedJpy: 4400,
      toPayJpy: 0,
      refundDueJpy: 440,
    },
  ],
  'claim.lost': [
    { status: 'shipped' },
    { status: 'lost', shipment: 'SH-000009', refundJpy: 9000, reason: '' },
  ],
  'user.disable': [{ disabled: false }, { disabled: true, reason: 'Fraud', sessionsEnded: 2 }],
  'user.enable': [{ disabled: true, reason: 'Fraud' }, { disabled: false }],
  'user.sign_out': [{}, { sessionsEnded: 3 }],
  'balance.topup': [{}, { amountJpy: 20000, reference: 'BANK-7', balanceJpy: 20000 }],
  'balance.adjust': [{ balanceJpy: 20000 }, { balanceJpy: 19000, amountJpy: -1000, reason: 'Bank fee' }],
  'balance.refund': [{ refundDueJpy: 5000 }, { refundDoneJpy: 5000, invoice: 'S-000009', balanceJpy: 5000 }],
  'store.hide': [
    { name: 'Mercari', hidden: false },
    { name: 'Mercari', hidden: true },
  ],
  'store.show': [
    { name: 'Mercari', hidden: true },
    { name: 'Mercari', hidden: false },
  ],
  'store.move': [
    { name: 'Mercari', position: 2 },
    { name: 'Mercari', position: 1 },
  ],
  'store.logo': [
    { name: 'Mercari', logo: null },
    { name: 'Mercari', logo: 'abcdef0123456789' },
  ],
}

const RAW = [
  /audit\./,
  /[a-z][A-Z][a-z]+Jpy|Jpy\b|weightG|daysOver|sessionsEnded/,
  /\b(to_buy|unavailable|shipped|lost|held|succeeded|refunded|received|disposed|paypal)\b/,
  /\bvia\b|\btrue\b|\bfalse\b/,
]

group.each(['en', 'es'] as Language[])('records read in %s', (language) => {
  const t = getServerI18n(language, ['common', 'admin']).t
  test.each(Object.entries(SAMPLES))('%s', (kind, [before, after]) => {
    const lines = describe(
      {
        kind,
        subjectType: 'x',
        subjectId: '7',
        subjectEmail: 'ana@example.com',
        before: before as Record<string, unknown>,
        after: after as Record<string, unknown>,
      },
      t,
      language,
    ).join('\n')
    expect(lines.length).toBeGreaterThan(0)
    for (const pattern of RAW) expect(lines, `${kind}: ${lines}`).not.toMatch(pattern)
  })

  test('money and weights are formatted, statuses and methods in words', () => {
    const read = (kind: keyof typeof SAMPLES) => {
      const [before, after] = SAMPLES[kind]
      return describe(
        {
          kind,
          subjectType: 'x',
          subjectId: null,
          subjectEmail: null,
          before: before as never,
          after: after as never,
        },
        t,
        language,
      )
    }
    if (language === 'en') {
      expect(read('claim.lost')).toEqual([
        'Shipment SH-000009',
        'Status: Shipped → Lost',
        `Refund due: ${formatMoney(9000, 'JPY', 'en')}`,
        'Reason: (empty)',
      ])
      expect(read('item.unavailable')).toEqual([
        'item 2',
        'Status: Paid, being bought → Unavailable at the shop',
        `Refund due: ${formatMoney(3850, 'JPY', 'en')}`,
        'Reason: Sold out',
      ])
      expect(read('payment.refund_done')).toContain('Through: PayPal')
      expect(read('shipment.price_override')).toContain('Weight: 1,250 g')
      expect(read('item.dispose')).toContain('Days past the free storage: 31 days')
    } else {
      expect(read('claim.lost')).toContain('Estado: Enviado → Perdido')
      expect(read('payment.refund_done')).toContain('Por medio de: PayPal')
      expect(read('shipment.price_override').join('\n')).toMatch(/Peso: 1\.250 g/)
      expect(read('item.unavailable')).toContain(`Reembolso pendiente: ${formatMoney(3850, 'JPY', 'es')}`)
    }
  })
})
