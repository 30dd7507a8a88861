import { isStateOf, type Machine, type Transition, transitionsOf } from '#core/shared/state-machine.ts'

/**
 * One item of a request (one product link), as a table like the request's
 * (core/orders/request-machine.ts). Items move with their request in part 1 (quoted when the
 * quote is issued, to buy once it is paid) and one by one in part 2 (ordered at the shop,
 * received at our office, or unavailable when the shop has sold out after the customer paid, then
 * shipped to the customer in a shipment).
 * Pure (no I/O): core/orders/request-items.ts applies it inside the request's transaction.
 */
export const ITEM_STATUSES = [
  'pending',
  'quoted',
  'rejected',
  'cancelled',
  'to_buy',
  'ordered',
  'received',
  'unavailable',
  'shipped',
  'disposed',
] as const
export type ItemStatus = (typeof ITEM_STATUSES)[number]

export const ITEM_EVENTS = [
  'quote',
  'requote',
  'reject',
  'cancel',
  'pay',
  'order',
  'receive',
  'mark_unavailable',
  'ship',
  'dispose',
] as const
export type ItemEvent = (typeof ITEM_EVENTS)[number]

/** Statuses after which nothing happens to the item any more. */
export const FINAL_ITEM_STATUSES: readonly ItemStatus[] = [
  'rejected',
  'cancelled',
  'unavailable',
  'shipped',
  'disposed',
]

export const ITEM_MACHINE: Machine<ItemEvent, ItemStatus> = {
  // Staff issue the quote that prices the item.
  quote: { from: ['pending'], to: 'quoted', by: ['staff'] },
  // The quote is taken back to change it: priced again.
  requote: { from: ['quoted'], to: 'pending', by: ['staff', 'customer'] },
  reject: { from: ['pending', 'quoted'], to: 'rejected', by: ['staff'] },
  // The customer or staff cancel the request before it is paid, or its quote expires unpaid.
  cancel: { from: ['pending', 'quoted'], to: 'cancelled', by: ['customer', 'staff', 'system'] },
  // The invoice that charges for it is paid (a provider's verified report or staff recording a
  // bank transfer): now ours to buy.
  pay: { from: ['pending', 'quoted'], to: 'to_buy', by: ['provider', 'staff'] },
  order: { from: ['to_buy'], to: 'ordered', by: ['staff'] },
  // Booked in at our office (a package); a parcel may arrive before staff marked the order.
  receive: { from: ['to_buy', 'ordered'], to: 'received', by: ['staff'] },
  mark_unavailable: { from: ['to_buy', 'ordered'], to: 'unavailable', by: ['staff'] },
  // Handed to the carrier in a shipment (docs/decisions/030).
  ship: { from: ['received'], to: 'shipped', by: ['staff'] },
  // Left at the office past the last day of storage: an admin may dispose of it (audited).
  dispose: { from: ['received'], to: 'disposed', by: ['staff'] },
}

export type ItemTransition = Transition<ItemStatus>

export const itemTransition = transitionsOf(ITEM_MACHINE)

export const isItemStatus = isStateOf(ITEM_STATUSES)
