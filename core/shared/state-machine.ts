import type { ActorKind } from './actor-kind.ts'

/**
 * The one reading of a state machine's table. Each aggregate (a request, its items, an invoice, a
 * payment, a shipment) declares its table once, event by event: from which states, to which
 * state, by whom (`core/orders/request-machine.ts` and its siblings); this answers whether an
 * event may happen now, the same way for all of them. Pure: the services apply the answer in a
 * transaction with the history row (`history.ts`).
 */

/** One event of a table: the states it moves from (`null`: the thing does not exist yet), where to, by whom. */
export type MachineRule<State extends string, From extends State | null = State> = {
  from: readonly From[]
  to: State
  by: readonly ActorKind[]
}

export type Machine<Event extends string, State extends string, From extends State | null = State> = Readonly<
  Record<Event, MachineRule<State, From>>
>

/**
 * Why an event cannot happen: `already` (the thing is where the event leads: a replay, a double
 * click, a second webhook), `not_allowed` (not from this state), `forbidden` (not by this actor).
 */
export type TransitionRefusal = 'already' | 'not_allowed' | 'forbidden'

export type Transition<State extends string, From extends State | null = State> =
  | { ok: true; from: From; to: State }
  | { ok: false; refusal: TransitionRefusal }

/** Whether `event` may move a thing in `state` now, caused by `actor`, and where to. */
export function transitionIn<Event extends string, State extends string, From extends State | null>(
  machine: Machine<Event, State, From>,
  state: From,
  event: Event,
  actor: ActorKind,
): Transition<State, From> {
  const rule = machine[event]
  if (!rule.from.includes(state)) {
    return { ok: false, refusal: (state as State | null) === rule.to ? 'already' : 'not_allowed' }
  }
  if (!rule.by.includes(actor)) return { ok: false, refusal: 'forbidden' }
  return { ok: true, from: state, to: rule.to }
}

/** The table's transition function, bound: `(state, event, actor) => Transition`. */
export function transitionsOf<Event extends string, State extends string, From extends State | null>(
  machine: Machine<Event, State, From>,
): (state: From, event: Event, actor: ActorKind) => Transition<State, From> {
  return (state, event, actor) => transitionIn(machine, state, event, actor)
}

/** A type guard for a table's states (a status read from the database or a URL). */
export function isStateOf<State extends string>(states: readonly State[]) {
  return (value: unknown): value is State => states.includes(value as State)
}
