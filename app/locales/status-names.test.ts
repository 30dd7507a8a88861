import { expect, test } from 'vitest'
import { ITEM_STATUSES } from '#core/orders/item-machine.ts'
import { REQUEST_STATUSES } from '#core/orders/request-machine.ts'
import { PAYMENT_STATUSES } from '#core/payments/payment-machine.ts'
import { SHIPMENT_STATUSES } from '#core/shipping/shipment-machine.ts'
import enAccount from './en/account.ts'
import enAdmin from './en/admin.ts'
import esAccount from './es/account.ts'
import esAdmin from './es/admin.ts'

// One name per status everywhere, in each language (ADR 038): a request "Waiting for a quote" is
// not "Submitted" for staff and "Pending" for its customer (nor "Recibida" and "Pendiente").

test.each([
  ['en', enAccount, enAdmin],
  ['es', esAccount, esAdmin],
] as const)(
  '%s: the customer’s pages, the staff’s and the audit log name each status alike',
  (_, account, admin) => {
    const same = (maps: Record<string, string>[], statuses: readonly string[]) => {
      for (const status of statuses) {
        const names = new Set(maps.map((map) => map[status]).filter((name) => name !== undefined))
        expect([...names], status).toHaveLength(1)
      }
    }
    same([account.requests.status, admin.queue.statuses], REQUEST_STATUSES)
    same(
      [account.shipments.statuses, admin.staffShipments.statuses, admin.audit.statuses.shipment],
      SHIPMENT_STATUSES,
    )
    same([account.requests.itemStatus, admin.queue.itemStatus, admin.audit.statuses.item], ITEM_STATUSES)
    same([admin.payments.statuses, admin.audit.statuses.payment], PAYMENT_STATUSES)
    same([account.invoices.status, admin.payments.invoiceStatus], ['open', 'paid', 'void', 'expired'])
    for (const status of REQUEST_STATUSES) expect(admin.queue.statuses).toHaveProperty(status)
  },
)
