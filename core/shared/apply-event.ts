import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from '#db/client.ts'
import { AppError } from './errors.ts'
import { type OrderActor, recordOrderEvent } from './history.ts'
import { type Machine, transitionIn } from './state-machine.ts'

/**
 * The one way an order aggregate (a request, an invoice, a shipment) moves by an event of its
 * table, inside the caller's transaction: lock the row, check the version the caller saw (a
 * page's form), ask the table, update with compare-and-set on `version`, append the history row.
 * A double click, a second tab, a second admin or a replayed webhook finds the version moved or
 * the thing already there. Notifications and jobs of the change go in the same transaction, by
 * the caller, so all of it commits together or not at all.
 */

/** A table with the columns every aggregate has. */
type AggregateTable = PgTable & {
  id: PgColumn
  status: PgColumn
  version: PgColumn
  updatedAt: PgColumn
}

export type Aggregate<Event extends string, State extends string, Extra> = {
  /** The history's entity type (`order_events.entity_type`). */
  entity: string
  table: AggregateTable
  machine: Machine<Event, State, State | null>
  isState: (value: unknown) => value is State
  /** The columns read with the row besides status and version (number, owner…). */
  columns: { [Key in keyof Extra]: PgColumn }
  /** The refusals, worded for this aggregate. */
  notFound: (id: string) => AppError
  changed: (id: string, row: Extra) => AppError
  notAllowed: (id: string, row: Extra & { status: State }, event: Event) => AppError
}

export type AppliedEvent<State extends string, Extra> = Extra & {
  from: State
  to: State
  version: number
}

export type EventInput<Event extends string> = {
  id: string
  event: Event
  actor: OrderActor
  expectedVersion?: number
  /** Other columns the change sets (a timestamp, a reason). */
  set?: Record<string, unknown>
  at?: Date
  note?: string | null
  data?: Record<string, unknown>
  visibleToCustomer?: boolean
}

/**
 * Moves the aggregate; a replay (already where the event leads) is refused like a change
 * meanwhile (`aggregate.changed`).
 * @throws the aggregate's `notFound`, `changed`, `notAllowed`; AppError `forbidden` (not this actor).
 */
export async function applyEvent<Event extends string, State extends string, Extra>(
  tx: Executor,
  aggregate: Aggregate<Event, State, Extra>,
  input: EventInput<Event>,
): Promise<AppliedEvent<State, Extra>> {
  const applied = await move(tx, aggregate, input)
  if (applied.replay) throw aggregate.changed(input.id, applied.row)
  return applied.result
}

/** As `applyEvent`, but a replay is no error: null (a second void of one invoice, say). */
export async function applyEventUnlessDone<Event extends string, State extends string, Extra>(
  tx: Executor,
  aggregate: Aggregate<Event, State, Extra>,
  input: EventInput<Event>,
): Promise<AppliedEvent<State, Extra> | null> {
  const applied = await move(tx, aggregate, input)
  return applied.replay ? null : applied.result
}

/**
 * As `applyEvent`, but an event the table refuses from the row's state (a replay, or a state
 * that moved on: a payment settled before the reconciliation job abandons it) is no error: null.
 * A version other than `expectedVersion` is still refused (`aggregate.changed`).
 */
export async function applyEventIfAllowed<Event extends string, State extends string, Extra>(
  tx: Executor,
  aggregate: Aggregate<Event, State, Extra>,
  input: EventInput<Event>,
): Promise<AppliedEvent<State, Extra> | null> {
  const applied = await move(tx, aggregate, input, { quiet: true })
  return applied.replay ? null : applied.result
}

/** A table whose rows carry an optimistic `version` (and, most of them, `updatedAt`). */
type VersionedTable = PgTable & { id: PgColumn; version: PgColumn; updatedAt?: PgColumn }

/**
 * The compare-and-set every change of a versioned row goes through, with or without a move of
 * state: sets the columns and moves `version` on, if the row still has the version the caller
 * read (`version`; leave it out when the row is locked and any version will do). Returns the new
 * version, or null when the row moved meanwhile (or is gone, or `where` no longer holds).
 */
export async function setIfVersion(
  tx: Executor,
  table: VersionedTable,
  input: { id: string | number; version?: number; set: Record<string, unknown>; at?: Date; where?: SQL },
): Promise<number | null> {
  const [updated] = (await tx
    .update(table)
    .set({
      ...input.set,
      version: sql`${table.version} + 1`,
      ...(table.updatedAt ? { updatedAt: input.at ?? new Date() } : {}),
    } as Record<string, unknown>)
    .where(
      and(
        eq(table.id, input.id),
        input.version === undefined ? undefined : eq(table.version, input.version),
        input.where,
      ) as SQL,
    )
    .returning({ version: table.version })) as { version: number }[]
  return updated?.version ?? null
}

async function move<Event extends string, State extends string, Extra>(
  tx: Executor,
  aggregate: Aggregate<Event, State, Extra>,
  input: EventInput<Event>,
  options: { quiet?: boolean } = {},
): Promise<{ replay: true; row: Extra } | { replay: false; result: AppliedEvent<State, Extra> }> {
  const { table } = aggregate
  const [row] = (await tx
    .select({ ...aggregate.columns, status: table.status, version: table.version } as Record<
      string,
      PgColumn
    >)
    .from(table)
    .where(eq(table.id, input.id))
    .for('update')) as (Extra & { status: string; version: number })[]
  if (!row) throw aggregate.notFound(input.id)
  const status = row.status
  if (!aggregate.isState(status)) throw new Error(`Unknown ${aggregate.entity} status ${status}`)
  if (input.expectedVersion !== undefined && row.version !== input.expectedVersion) {
    throw aggregate.changed(input.id, row)
  }
  const step = transitionIn(aggregate.machine, status, input.event, input.actor.kind)
  if (!step.ok) {
    if (step.refusal === 'forbidden') {
      throw new AppError(
        'forbidden',
        `${input.actor.kind} may not ${input.event} ${aggregate.entity} ${input.id}`,
      )
    }
    if (step.refusal === 'already' || options.quiet) return { replay: true, row }
    throw aggregate.notAllowed(input.id, { ...row, status }, input.event)
  }
  const version = await setIfVersion(tx, table, {
    id: input.id,
    version: row.version,
    set: { ...input.set, status: step.to },
    at: input.at,
  })
  if (version === null) throw aggregate.changed(input.id, row)
  await recordOrderEvent(tx, {
    entityType: aggregate.entity,
    entityId: input.id,
    event: input.event,
    from: status,
    to: step.to,
    actor: input.actor,
    note: input.note,
    data: input.data,
    visibleToCustomer: input.visibleToCustomer,
  })
  const { status: _status, version: _version, ...extra } = row
  return {
    replay: false,
    result: { ...(extra as Extra), from: status, to: step.to, version },
  }
}
