import { expect, test } from 'vitest'
import { tabFor } from './customer-nav.tsx'

// The customer's menu names the tab a page belongs to, detail pages included (ADR 038): a
// shipment's page is "Shipping" (it fell back to "Send a request"), a request's "My requests".

test.each([
  ['/user-dashboard', undefined, 'submit'],
  ['/user-dashboard/requests', undefined, 'history'],
  ['/user-dashboard/requests/0e8f1c2a-0000-4000-8000-000000000000', undefined, 'history'],
  ['/user-dashboard/shipping', undefined, 'shipping'],
  ['/user-dashboard/shipments/0e8f1c2a-0000-4000-8000-000000000000', undefined, 'shipping'],
  ['/user-dashboard/profile/addresses/new', undefined, 'profile'],
  ['/user-dashboard/notifications', undefined, 'notifications'],
  ['/user-dashboard/notifications/whatsapp', undefined, 'notifications'],
  // The balance is under "Payments" (docs/decisions/050); it fell back to "Send a request".
  ['/user-dashboard/balance', undefined, 'payments'],
  // An invoice says whose it is: a request's quote, a shipment's receipt.
  ['/user-dashboard/invoices/0e8f1c2a-0000-4000-8000-000000000000', 'history', 'history'],
  ['/user-dashboard/invoices/0e8f1c2a-0000-4000-8000-000000000000', 'shipping', 'shipping'],
] as const)('%s (%s) → %s', (path, named, tab) => {
  expect(tabFor(path, named)?.key).toBe(tab)
})
