import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'

/**
 * The one way a form is read (in actions, and by Conform in the browser): the form's shape is
 * checked against its schema before anything is built from it, then Conform and zod parse it.
 *
 * Why: Conform builds lists from the names as they come, so `items[99999999].url` makes an array
 * of a hundred million places, which zod then walks and the page renders back (one post took the
 * server's memory from 655 MB to 4 GB and killed it). So no list index may reach the length its
 * schema allows (`z.array(…).max(n)`), no list may be longer than that, and a list the schema
 * does not describe is held to `UNDESCRIBED_LIST_LIMIT`; the same for the indices in a Conform
 * intent (the "add a row" buttons). A form that breaks this, or whose Conform fields are not
 * readable, was not sent by our pages: it gets a 400 page at once, with nothing parsed.
 */
export function parseSubmission<Schema extends z.ZodType>(
  formData: FormData,
  options: { schema: Schema },
): Submission<z.input<Schema>, string[], z.output<Schema>> {
  const problem = formShapeProblem(formData, options.schema)
  if (problem) {
    throw new AppError('invalid', `Form refused before parsing: ${problem}`, {
      reason: problem.startsWith('list') ? 'formListTooLong' : 'formMalformed',
    })
  }
  return parseWithZod(formData, options)
}

/** The longest list allowed where a schema has no list, or a list without a maximum. */
export const UNDESCRIBED_LIST_LIMIT = 50

const INTENT = '__intent__'
const STATE = '__state__'
const INTENT_TYPES = new Set(['validate', 'update', 'reset', 'insert', 'remove', 'reorder'])

type Segment = string | number

/**
 * What is wrong with a form's shape for this schema (a sentence for the log), or null. Pure: the
 * browser runs it too.
 */
export function formShapeProblem(formData: FormData, schema: z.ZodType): string | null {
  const counts = new Map<string, number>()
  for (const [name, value] of formData.entries()) {
    if (name === INTENT || name === STATE) {
      if (typeof value !== 'string') return `${name} is not text`
      const problem = name === INTENT ? intentProblem(value, schema) : jsonProblem(value)
      if (problem) return problem
      continue
    }
    const segments = parseName(name)
    // Conform skips a name it cannot read (and builds nothing from it).
    if (!segments) continue
    const problem = namePathProblem(segments, schema)
    if (problem) return problem
    const count = (counts.get(name) ?? 0) + 1
    counts.set(name, count)
    // The same name again and again is a list too: no longer than one the schema allows there.
    const listPath = segments.at(-1) === '' ? segments.slice(0, -1) : segments
    if (count > listLimit(nodesAt(schema, listPath))) return `list ${name} sent ${count} times`
  }
  return null
}

function jsonProblem(text: string): string | null {
  try {
    JSON.parse(text)
    return null
  } catch {
    return 'form state is not JSON'
  }
}

/** A Conform intent ("add a row", "remove row 3"): known, and its indices within the list. */
function intentProblem(text: string, schema: z.ZodType): string | null {
  let intent: unknown
  try {
    intent = JSON.parse(text)
  } catch {
    return 'intent is not JSON'
  }
  if (typeof intent !== 'object' || intent === null) return 'intent is not an object'
  const { type, payload } = intent as { type?: unknown; payload?: unknown }
  if (typeof type !== 'string' || !INTENT_TYPES.has(type) || typeof payload !== 'object' || payload === null)
    return 'intent is unknown'
  const { name, index, from, to } = payload as Record<string, unknown>
  const segments = name === undefined || name === '' ? [] : typeof name === 'string' ? parseName(name) : null
  if (!segments) return 'intent names no field'
  for (const position of [index, from, to]) {
    if (position === undefined) continue
    if (typeof position !== 'number' || !Number.isInteger(position) || position < 0)
      return 'intent position is not an index'
    const problem = namePathProblem([...segments, position], schema)
    if (problem) return problem
  }
  return null
}

/** Each index on the way to a field is below the length its list may have. */
function namePathProblem(segments: Segment[], schema: z.ZodType): string | null {
  let nodes: z.ZodType[] = candidates(schema)
  for (const [depth, segment] of segments.entries()) {
    if (typeof segment === 'number') {
      const limit = listLimit(nodes)
      if (segment >= limit)
        return `list index ${segment} at ${formatName(segments.slice(0, depth))} (limit ${limit})`
    }
    nodes = childNodes(nodes, segment)
  }
  return null
}

function nodesAt(schema: z.ZodType, segments: Segment[]): z.ZodType[] {
  let nodes = candidates(schema)
  for (const segment of segments) nodes = childNodes(nodes, segment)
  return nodes
}

/** How long a list at these schema nodes may be: the largest maximum among them. */
function listLimit(nodes: z.ZodType[]): number {
  let limit = 0
  for (const node of nodes) {
    if (def(node).type !== 'array') continue
    limit = Math.max(limit, arrayMaximum(node) ?? UNDESCRIBED_LIST_LIMIT)
  }
  return limit === 0 ? UNDESCRIBED_LIST_LIMIT : limit
}

function arrayMaximum(node: z.ZodType): number | null {
  let maximum: number | null = null
  for (const check of (def(node).checks ?? []) as { _zod: { def: Record<string, unknown> } }[]) {
    const { check: kind, maximum: max, length } = check._zod.def
    const bound = kind === 'max_length' ? max : kind === 'length_equals' ? length : undefined
    if (typeof bound === 'number') maximum = Math.min(maximum ?? bound, bound)
  }
  return maximum
}

function childNodes(nodes: z.ZodType[], segment: Segment): z.ZodType[] {
  const children: z.ZodType[] = []
  for (const node of nodes) {
    const { type, shape, element, valueType } = def(node) as {
      type: string
      shape?: Record<string, z.ZodType>
      element?: z.ZodType
      valueType?: z.ZodType
    }
    if (typeof segment === 'number' || segment === '') {
      if (type === 'array' && element) children.push(...candidates(element))
    } else if (type === 'object' && shape?.[segment]) children.push(...candidates(shape[segment]))
    else if (type === 'record' && valueType) children.push(...candidates(valueType))
  }
  return children
}

/** The schemas a value at this node may meet: wrappers opened, every option of a union. */
function candidates(schema: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 20) return []
  const d = def(schema) as Record<string, unknown> & { type: string }
  const inner = (next: unknown) => (next ? candidates(next as z.ZodType, depth + 1) : [])
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(d.innerType)
    case 'pipe':
      return [...inner(d.in), ...inner(d.out)]
    case 'lazy':
      return inner((d.getter as () => unknown)())
    case 'union':
      return (d.options as z.ZodType[]).flatMap((option) => inner(option))
    case 'intersection':
      return [...inner(d.left), ...inner(d.right)]
    default:
      return [schema]
  }
}

function def(schema: z.ZodType): { type: string; checks?: unknown[] } & Record<string, unknown> {
  return (schema as unknown as { _zod: { def: { type: string } & Record<string, unknown> } })._zod.def
}

/** A field name as Conform reads it (`items[2].url`), or null where Conform cannot read it. */
export function parseName(name: string): Segment[] | null {
  const token = /([^.[\]]+)|\[(\d*)\]/g
  const segments: Segment[] = []
  let last = 0
  for (let match = token.exec(name); match; match = token.exec(name)) {
    if (match.index !== last && !(match.index === last + 1 && name[last] === '.')) return null
    const [, key, index] = match
    if (key !== undefined) segments.push(key)
    else if (index === '') segments.push('')
    else {
      const number = Number(index)
      segments.push(Number.isSafeInteger(number) ? number : Number.MAX_SAFE_INTEGER)
    }
    last = token.lastIndex
  }
  return last === name.length ? segments : null
}

function formatName(segments: Segment[]): string {
  return segments
    .map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i ? `.${segment}` : segment))
    .join('')
}
