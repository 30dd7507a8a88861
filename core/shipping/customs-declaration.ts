import { and, asc, desc, eq, inArray } from 'drizzle-orm'
import type { OrderContext } from '#core/orders/order-context.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import { isStaff, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { Executor } from '#db/client.ts'
import {
  customsDeclarationLines,
  customsDeclarations,
  invoiceLines,
  invoices,
  purchaseRequests,
  requestItems,
  type ShipmentAddress,
  shipmentItems,
  shipments,
} from '#db/schema/index.ts'
import {
  buildDeclarationLines,
  type DeclarableItem,
  type DeclarationLine,
  type DeclarationTotals,
  declarationTotals,
  ReviewDeclarationSchema,
  StaffDeclarationSchema,
  type WrittenLine,
} from './customs-declaration-rules.ts'
import { isShipmentStatus, type ShipmentStatus } from './shipment-machine.ts'

/**
 * A shipment's customs declaration (issue 30; the rules in customs-declaration-rules.ts): its
 * lines filled from the paid quote lines of the shipment's items, the customer's review (they
 * write the descriptions in English and confirm them), staff's HS codes, and the printable form.
 * While the shipment waits to be packed, a declaration nobody has touched is built from the items
 * each time it is read; the first change stores it. Once the shipment is packed (or cancelled) it
 * is locked: every change is refused. Each change is one transaction: the shipment locked, the
 * declaration compared and set on its version, its lines rewritten, one history row
 * (order_events, entity `customs_declaration`, id = the shipment's).
 */

export const DECLARATION_ENTITY = 'customs_declaration'

/** The customer's and staff's view of a declaration. */
export type DeclarationView = {
  shipmentId: string
  number: string
  status: ShipmentStatus
  /** Packed or later, or cancelled: nobody may change it. */
  locked: boolean
  /** The version to send back with a change; null while it has never been saved. */
  version: number | null
  confirmedAt: Date | null
  lines: DeclarationLine[]
  totals: DeclarationTotals
}

const shipmentNotFound = (id: string) =>
  new AppError('not_found', `Shipment ${id.slice(0, 80)} not found`, { reason: 'shipmentNotFound' })

const changed = (number: string) =>
  new AppError('conflict', `Declaration of ${number} changed`, { reason: 'shipmentChanged' })

const locked = (number: string, status: string) =>
  new AppError('conflict', `Declaration of ${number} is locked (${status})`, {
    reason: 'shipmentNotAllowed',
    fieldErrors: { '': ['locked'] },
  })

type ShipmentHead = { id: string; number: string; userId: string; status: ShipmentStatus }

async function readHead(db: Executor, id: string, { lock }: { lock: boolean }): Promise<ShipmentHead | null> {
  if (!isUuid(id)) return null
  const query = db
    .select({
      id: shipments.id,
      number: shipments.number,
      userId: shipments.userId,
      status: shipments.status,
    })
    .from(shipments)
    .where(eq(shipments.id, id))
  const [row] = lock ? await query.for('update') : await query
  if (!row) return null
  return { ...row, status: isShipmentStatus(row.status) ? row.status : 'requested' }
}

/** The items in the shipment (active ones; a cancelled shipment's last ones), with what they were paid. */
async function declarableItems(db: Executor, shipmentId: string, status: ShipmentStatus) {
  const rows = await db
    .select({
      itemId: requestItems.id,
      title: requestItems.title,
      quantity: requestItems.quantity,
      unitPriceJpy: requestItems.unitPriceJpy,
      weightGrams: requestItems.weightGrams,
    })
    .from(shipmentItems)
    .innerJoin(requestItems, eq(requestItems.id, shipmentItems.itemId))
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
    .where(
      and(
        eq(shipmentItems.shipmentId, shipmentId),
        status === 'cancelled' ? undefined : eq(shipmentItems.active, true),
      ),
    )
    .orderBy(asc(purchaseRequests.number), asc(requestItems.position))
  if (rows.length === 0) return []
  // The item's line on a paid quote: what the customer paid for it (the latest paid, should a
  // request have had more than one).
  const paid = await db
    .select({
      itemId: invoiceLines.itemId,
      quantity: invoiceLines.quantity,
      amountJpy: invoiceLines.amountJpy,
    })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(
      and(
        inArray(
          invoiceLines.itemId,
          rows.map((row) => row.itemId),
        ),
        eq(invoiceLines.kind, 'item'),
        eq(invoices.kind, 'purchase'),
        eq(invoices.status, 'paid'),
      ),
    )
    .orderBy(desc(invoices.paidAt))
  const paidOf = new Map<string, { quantity: number; amountJpy: number }>()
  for (const line of paid) {
    if (line.itemId && !paidOf.has(line.itemId)) paidOf.set(line.itemId, line)
  }
  return rows.map((row): DeclarableItem => ({ ...row, paid: paidOf.get(row.itemId) ?? null }))
}

async function readStored(db: Executor, shipmentId: string, { lock }: { lock: boolean }) {
  const query = db
    .select({
      id: customsDeclarations.id,
      version: customsDeclarations.version,
      confirmedBy: customsDeclarations.confirmedBy,
      confirmedAt: customsDeclarations.confirmedAt,
    })
    .from(customsDeclarations)
    .where(eq(customsDeclarations.shipmentId, shipmentId))
  const [declaration] = lock ? await query.for('update') : await query
  if (!declaration) return null
  const lines = await db
    .select({
      itemId: customsDeclarationLines.itemId,
      position: customsDeclarationLines.position,
      description: customsDeclarationLines.description,
      quantity: customsDeclarationLines.quantity,
      valueJpy: customsDeclarationLines.valueJpy,
      netWeightG: customsDeclarationLines.netWeightG,
      hsCode: customsDeclarationLines.hsCode,
      originCountry: customsDeclarationLines.originCountry,
    })
    .from(customsDeclarationLines)
    .where(eq(customsDeclarationLines.declarationId, declaration.id))
    .orderBy(asc(customsDeclarationLines.position))
  return { ...declaration, lines }
}

/**
 * The lines as they stand: while unlocked, rebuilt from the items (values and weights as paid and
 * weighed) with what was written kept; once locked, as stored (built, if never stored).
 */
async function currentLines(
  db: Executor,
  head: ShipmentHead,
  stored: Awaited<ReturnType<typeof readStored>>,
) {
  const isLocked = head.status !== 'requested'
  if (isLocked && stored && stored.lines.length > 0) {
    return stored.lines.map((line): DeclarationLine => ({ ...line, itemId: line.itemId ?? '' }))
  }
  const items = await declarableItems(db, head.id, head.status)
  return buildDeclarationLines(items, (stored?.lines ?? []) as WrittenLine[])
}

function viewOf(
  head: ShipmentHead,
  stored: Awaited<ReturnType<typeof readStored>>,
  lines: DeclarationLine[],
): DeclarationView {
  return {
    shipmentId: head.id,
    number: head.number,
    status: head.status,
    locked: head.status !== 'requested',
    version: stored?.version ?? null,
    confirmedAt: stored?.confirmedAt ?? null,
    lines,
    totals: declarationTotals(lines),
  }
}

/**
 * A shipment's declaration, for its customer or staff (another customer's is a missing one).
 * @throws AppError `unauthorized`, `not_found`.
 */
export async function getDeclaration(
  { db, actor }: ServiceContext,
  shipmentId: string,
): Promise<DeclarationView> {
  const user = requireActor(actor, 'The customs declaration needs a signed-in user')
  const head = await readHead(db, shipmentId, { lock: false })
  if (!head || (!isStaff(user) && head.userId !== user.id)) throw shipmentNotFound(shipmentId)
  const stored = await readStored(db, head.id, { lock: false })
  return viewOf(head, stored, await currentLines(db, head, stored))
}

type Change = {
  actor: OrderActor
  event: 'declaration_reviewed' | 'declaration_confirmed' | 'declaration_edited'
  /** The lines someone sent: descriptions (and, from staff, HS codes) by item. */
  lines: { itemId: string; description: string | null; hsCode?: string | null }[]
  version: number | null
  confirm: boolean
  visibleToCustomer: boolean
}

/**
 * The one way a declaration changes, in the caller's transaction: the shipment locked (packing
 * locks it too, so a change and the packing wait for each other), refused once it is packed, the
 * page's version compared, the lines rebuilt with what was sent, the declaration stored or moved
 * on one version, its lines rewritten, one history row.
 */
async function changeDeclaration(tx: Executor, head: ShipmentHead, change: Change) {
  if (head.status !== 'requested') throw locked(head.number, head.status)
  const stored = await readStored(tx, head.id, { lock: true })
  if ((stored?.version ?? null) !== change.version) throw changed(head.number)
  const items = await declarableItems(tx, head.id, head.status)
  // The page showed other items than the shipment holds now: reload, nothing half-applied.
  const sent = new Map(change.lines.map((line) => [line.itemId, line]))
  if (items.length !== sent.size || items.some((item) => !sent.has(item.itemId))) throw changed(head.number)
  const before = buildDeclarationLines(items, (stored?.lines ?? []) as WrittenLine[])
  const after = before.map((line) => {
    const edit = sent.get(line.itemId)
    return {
      ...line,
      description: edit?.description ?? null,
      hsCode: edit && edit.hsCode !== undefined ? edit.hsCode : line.hsCode,
    }
  })
  const described = after.some((line, index) => line.description !== before[index]?.description)
  const coded = after.some((line, index) => line.hsCode !== before[index]?.hsCode)
  if (change.confirm && after.some((line) => !line.description)) {
    throw new AppError('invalid', `Declaration of ${head.number} has lines without a description`, {
      reason: 'shipmentInvalid',
      fieldErrors: Object.fromEntries(
        after.flatMap((line, index) =>
          line.description ? [] : [[`lines[${index}].description`, ['descriptionRequired']]],
        ),
      ),
    })
  }
  if (!change.confirm && !described && !coded && stored) return { version: stored.version }

  const now = new Date()
  // A description changed: whatever the customer confirmed is no longer what is declared.
  const confirmation = change.confirm
    ? { confirmedBy: change.actor.id, confirmedAt: now }
    : described
      ? { confirmedBy: null, confirmedAt: null }
      : {}
  let declarationId: string
  let version: number
  if (stored) {
    const moved = await setIfVersion(tx, customsDeclarations, {
      id: stored.id,
      version: stored.version,
      set: confirmation,
      at: now,
    })
    if (moved === null) throw changed(head.number)
    declarationId = stored.id
    version = moved
    await tx.delete(customsDeclarationLines).where(eq(customsDeclarationLines.declarationId, stored.id))
  } else {
    const [created] = await tx
      .insert(customsDeclarations)
      .values({ shipmentId: head.id, ...confirmation })
      .returning({ id: customsDeclarations.id, version: customsDeclarations.version })
    if (!created) throw new Error('Declaration not stored')
    declarationId = created.id
    version = created.version
  }
  await tx.insert(customsDeclarationLines).values(after.map((line) => ({ ...line, declarationId })))
  await recordOrderEvent(tx, {
    entityType: DECLARATION_ENTITY,
    entityId: head.id,
    event: change.event,
    actor: change.actor,
    data: {
      shipment: head.number,
      descriptions: described,
      hsCodes: coded,
      confirmed: change.confirm,
      totalValueJpy: declarationTotals(after).valueJpy,
    },
    visibleToCustomer: change.visibleToCustomer,
  })
  return { version }
}

/**
 * The customer corrects the descriptions of their shipment's declaration and, with `confirm`,
 * confirms it (every line described). Values, quantities and weights are not theirs to change:
 * the input has no place for them.
 * @throws AppError `unauthorized`; `not_found` (not theirs); `invalid` (field errors under
 * `declaration.errors`); `conflict` (`shipmentChanged`: a stale page; `shipmentNotAllowed`: packed).
 */
export async function reviewDeclaration({ db, actor }: ServiceContext, input: unknown) {
  const user = requireActor(actor, 'The customs declaration needs a signed-in user')
  const data = parse(ReviewDeclarationSchema, input, 'shipmentInvalid')
  return db.transaction(async (tx) => {
    const head = await readHead(tx, data.id, { lock: true })
    // Staff change a declaration through their own page (editDeclaration): this is the customer's.
    if (!head || head.userId !== user.id) throw shipmentNotFound(data.id)
    return changeDeclaration(tx, head, {
      actor: { kind: 'customer', id: user.id },
      event: data.confirm ? 'declaration_confirmed' : 'declaration_reviewed',
      lines: data.lines,
      version: data.version,
      confirm: data.confirm,
      visibleToCustomer: true,
    })
  })
}

/**
 * Staff (who handle the warehouse: moderators and admins) correct descriptions and write HS codes.
 * A changed description clears the customer's confirmation; an HS code does not.
 * @throws AppError `unauthorized`, `forbidden`, `invalid`, `not_found`, `conflict` as above.
 */
export async function editDeclaration({ db, actor }: ServiceContext, input: unknown) {
  const staff = staffActor(actor, 'handle_arrivals')
  const data = parse(StaffDeclarationSchema, input, 'shipmentInvalid')
  return db.transaction(async (tx) => {
    const head = await readHead(tx, data.id, { lock: true })
    if (!head) throw shipmentNotFound(data.id)
    return changeDeclaration(tx, head, {
      actor: staff,
      event: 'declaration_edited',
      lines: data.lines,
      version: data.version,
      confirm: false,
      visibleToCustomer: false,
    })
  })
}

export type PrintableDeclaration = DeclarationView & {
  method: string
  address: ShipmentAddress
  sender: Settings['company']
  packedAt: Date | null
}

/**
 * The declaration as staff print it: the lines and totals, the sender (the company's details in
 * the settings) and the recipient (the shipment's address as it was asked).
 * @throws AppError `unauthorized`, `forbidden` (not staff), `not_found`.
 */
export async function getPrintableDeclaration(
  context: OrderContext,
  shipmentId: string,
): Promise<PrintableDeclaration> {
  staffActor(context.actor, 'handle_arrivals')
  const view = await getDeclaration(context, shipmentId)
  const [[row], settings] = await Promise.all([
    context.db
      .select({ method: shipments.method, address: shipments.address, packedAt: shipments.packedAt })
      .from(shipments)
      .where(eq(shipments.id, view.shipmentId)),
    context.settings.get(),
  ])
  if (!row) throw shipmentNotFound(shipmentId)
  return { ...view, ...row, sender: settings.company }
}
