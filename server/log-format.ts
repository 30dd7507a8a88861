/**
 * pino's JSON lines made readable for a person at a terminal (server/logger.ts uses it when
 * stdout is a TTY; everywhere else, tests and CI included, the logs stay JSON lines):
 *
 *   10:53:27.123 INFO  storefront listening url=http://localhost:3000 database=embedded
 *   10:53:29.456 INFO  GET /contact 200 12ms req=5f0c…
 *   10:53:30.001 ERROR job failed component=jobs
 *       Error: boom
 *           at …
 *
 * A line that is not a JSON object is passed through as it is.
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}
const COLORS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' }
// Written elsewhere on the line, or noise at a terminal.
const OMITTED = new Set([
  'level',
  'time',
  'msg',
  'pid',
  'hostname',
  'service',
  'req',
  'res',
  'responseTime',
  'err',
])

export function formatLogLine(line: string, { color = false }: { color?: boolean } = {}): string {
  let entry: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(line)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return ensureNewline(line)
    entry = parsed as Record<string, unknown>
  } catch {
    return ensureNewline(line)
  }
  const level = typeof entry.level === 'number' ? entry.level : 30
  const levelName = (LEVELS[level] ?? String(entry.level)).padEnd(5)
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[39m` : text)
  const parts = [paint('90', timeOf(entry.time)), paint(COLORS[level] ?? '0', levelName)]

  const req = asRecord(entry.req)
  const res = asRecord(entry.res)
  if (req && res) {
    // A finished request (pino-http): method, path, status, duration; its id as a field.
    parts.push(
      `${String(req.method ?? '')} ${String(req.url ?? '')} ${String(res.statusCode ?? '')}${
        typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)}ms` : ''
      }`,
    )
  } else if (typeof entry.msg === 'string') {
    parts.push(entry.msg)
  }
  const fields = Object.entries(entry)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${paint('90', `${key}=`)}${fieldValue(value)}`)
  if (req?.id !== undefined) fields.push(`${paint('90', 'req=')}${String(req.id)}`)
  let text = [...parts, ...fields].join(' ')
  const err = asRecord(entry.err)
  if (err) {
    const stack =
      typeof err.stack === 'string'
        ? err.stack
        : `${String(err.type ?? 'Error')}: ${String(err.message ?? '')}`
    text += `\n${stack
      .split('\n')
      .map((stackLine) => `    ${stackLine}`)
      .join('\n')}`
  }
  return `${text.replaceAll(/\r?\n(?! {4})/g, '\n    ')}\n`
}

function ensureNewline(line: string): string {
  return line.endsWith('\n') ? line : `${line}\n`
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null
}

/** The time of day (local time of the machine), to the millisecond; the date is rarely needed at a terminal. */
function timeOf(time: unknown): string {
  const date = typeof time === 'string' || typeof time === 'number' ? new Date(time) : null
  if (!date || Number.isNaN(date.getTime())) return '--:--:--.---'
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`
}

/** Strings as they are unless they hold spaces or quotes (then JSON-quoted); objects as JSON. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string')
    return /^[^\s"=]*$/.test(value) && value !== '' ? value : JSON.stringify(value)
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return String(value)
}
