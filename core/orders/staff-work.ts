import { type SQL, sql } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import { isStaff, type ServiceContext } from '#core/shared/service-context.ts'
import { can, type StaffAction } from '#core/shared/staff-policy.ts'
import {
  claims,
  contactMessages,
  conversations,
  payments,
  purchaseRequests,
  requestItems,
  shipments,
  transferNotices,
} from '#db/schema/index.ts'

/**
 * The staff's work for today (`/admin-dashboard`, docs/decisions/036): what waits for them, in the
 * order the day goes (quotes first), each with its count and where to find it. A moderator sees
 * only what they may act on (core/shared/staff-policy.ts): no money, no contact inbox.
 *
 * Every count reads a small index of the rows that wait (a status index, or a partial one of
 * only the waiting rows), so the page costs the same with a hundred thousand requests behind it
 * as with ten; all of them in one round trip.
 */

export const WORK_KINDS = [
  'quote',
  'payments',
  'buy',
  'receive',
  'pack',
  'send',
  'claims',
  'messages',
  'conversations',
] as const
export type WorkKind = (typeof WORK_KINDS)[number]

/** What a staff member must be allowed to do for the work to be theirs. */
export const WORK_ACTIONS: Readonly<Record<WorkKind, StaffAction>> = {
  quote: 'approve_quote',
  payments: 'record_payment',
  buy: 'handle_arrivals',
  receive: 'handle_arrivals',
  pack: 'handle_arrivals',
  send: 'handle_arrivals',
  claims: 'handle_arrivals',
  messages: 'read_contact_inbox',
  conversations: 'write_note',
}

/** Where each kind of work is listed: the filtered list or page that shows exactly those. */
export const WORK_LINKS: Readonly<Record<WorkKind, string>> = {
  quote: '/admin-dashboard/requests?status=submitted',
  payments: '/admin-dashboard/payments',
  buy: '/admin-dashboard/requests?work=to_buy',
  receive: '/admin-dashboard/requests?work=to_receive',
  pack: '/admin-dashboard/shipments?status=requested',
  send: '/admin-dashboard/shipments?status=paid',
  claims: '/admin-dashboard/shipments?claim=open',
  messages: '/admin-dashboard/messages',
  conversations: '/admin-dashboard/conversations',
}

export type WorkCount = {
  kind: WorkKind
  /** How many: requests, payments, items, boxes, claims or messages, by kind. */
  count: number
  /** The parts of it where a count has two (payments: held / reported; items: in how many requests). */
  detail: Record<string, number>
  link: string
}

const int = (query: SQL) => sql`(${query})::int`

/** Each kind's count (and detail) as scalar subqueries of the one statement. */
const COUNTS: Readonly<Record<WorkKind, Record<string, SQL>>> = {
  quote: {
    count: int(sql`select count(*) from ${purchaseRequests} where ${purchaseRequests.status} = 'submitted'`),
  },
  payments: {
    held: int(sql`select count(*) from ${payments} where ${payments.status} = 'held'`),
    reported: int(sql`select count(*) from ${transferNotices} where ${transferNotices.status} = 'pending'`),
  },
  buy: {
    count: int(sql`select count(*) from ${requestItems} where ${requestItems.status} = 'to_buy'`),
    requests: int(
      sql`select count(distinct ${requestItems.requestId}) from ${requestItems} where ${requestItems.status} = 'to_buy'`,
    ),
  },
  receive: {
    count: int(sql`select count(*) from ${requestItems} where ${requestItems.status} = 'ordered'`),
    requests: int(
      sql`select count(distinct ${requestItems.requestId}) from ${requestItems} where ${requestItems.status} = 'ordered'`,
    ),
  },
  pack: { count: int(sql`select count(*) from ${shipments} where ${shipments.status} = 'requested'`) },
  send: { count: int(sql`select count(*) from ${shipments} where ${shipments.status} = 'paid'`) },
  claims: {
    count: int(sql`select count(*) from ${claims} where ${claims.status} in ('open', 'investigating')`),
  },
  messages: {
    count: int(
      sql`select count(*) from ${contactMessages} where ${contactMessages.handledAt} is null and not ${contactMessages.isSpam}`,
    ),
  },
  // Customers' messages in a request's or shipment's conversation with no staff answer yet
  // (docs/decisions/048): the partial index of the waiting rows.
  conversations: {
    count: int(sql`select count(*) from ${conversations} where ${conversations.waitingSince} is not null`),
  },
}

/** The kinds of work this staff member may act on, in the page's order. */
export function workKindsFor(actor: ServiceContext['actor']): WorkKind[] {
  return WORK_KINDS.filter((kind) => can(actor, WORK_ACTIONS[kind]))
}

/** The one statement that counts `kinds` (its plan is tested). */
export function workCountsQuery(kinds: readonly WorkKind[]): SQL {
  const columns = kinds.flatMap((kind) =>
    Object.entries(COUNTS[kind]).map(
      ([part, query]) => sql`${query} as ${sql.identifier(`${kind}.${part}`)}`,
    ),
  )
  return sql`select ${sql.join(columns, sql`, `)}`
}

/**
 * What waits for this staff member today, with counts and links.
 * @throws AppError `unauthorized` (nobody signed in), `forbidden` (not staff).
 */
export async function staffWorkToday({ db, actor }: ServiceContext): Promise<WorkCount[]> {
  if (!actor) throw new AppError('unauthorized', 'The work for today needs a signed-in user')
  if (!isStaff(actor)) {
    throw new AppError('forbidden', 'The work for today is for staff', { reason: 'staffActionForbidden' })
  }
  const kinds = workKindsFor(actor)
  const result = await db.execute(workCountsQuery(kinds))
  const row = (result.rows[0] ?? {}) as Record<string, number>
  return kinds.map((kind) => {
    const parts = Object.fromEntries(
      Object.keys(COUNTS[kind]).map((part) => [part, row[`${kind}.${part}`] ?? 0]),
    )
    const { count, ...detail } = parts
    return {
      kind,
      count: count ?? Object.values(detail).reduce((sum, value) => sum + value, 0),
      detail,
      link: WORK_LINKS[kind],
    }
  })
}
