import { expect, test } from 'vitest'
import { formatLogLine } from './log-format.ts'

const at = (iso: string) => {
  const date = new Date(iso)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`
}

test('a log entry becomes one readable line: time, level, message, then its own fields', () => {
  const line = JSON.stringify({
    level: 30,
    time: '2026-11-23T01:02:03.045Z',
    service: 'storefront',
    url: 'http://localhost:3000',
    database: 'embedded',
    msg: 'storefront listening',
  })
  expect(formatLogLine(line)).toBe(
    `${at('2026-11-23T01:02:03.045Z')} INFO  storefront listening url=http://localhost:3000 database=embedded\n`,
  )
  expect(
    formatLogLine(
      JSON.stringify({
        level: 40,
        time: '2026-11-23T01:02:03.045Z',
        msg: 'slow',
        note: 'two words',
        n: 3,
        ok: true,
        o: { a: 1 },
      }),
    ),
  ).toBe(`${at('2026-11-23T01:02:03.045Z')} WARN  slow note="two words" n=3 ok=true o={"a":1}\n`)
})

test('a finished request reads as method, path, status and duration, with its request id', () => {
  const line = JSON.stringify({
    level: 30,
    time: '2026-11-23T01:02:03.045Z',
    req: { method: 'GET', url: '/contact?lang=en', id: 'abc-123' },
    res: { statusCode: 200 },
    responseTime: 12.4,
    msg: 'request completed',
  })
  expect(formatLogLine(line)).toBe(
    `${at('2026-11-23T01:02:03.045Z')} INFO  GET /contact?lang=en 200 12ms req=abc-123\n`,
  )
})

test('an error shows its stack indented under the line; a multi-line message stays indented too', () => {
  const line = JSON.stringify({
    level: 50,
    time: '2026-11-23T01:02:03.045Z',
    component: 'jobs',
    err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at work (jobs.ts:1:1)' },
    msg: 'job failed\nsecond line',
  })
  expect(formatLogLine(line)).toBe(
    `${at('2026-11-23T01:02:03.045Z')} ERROR job failed\n    second line component=jobs\n    Error: boom\n        at work (jobs.ts:1:1)\n`,
  )
})

test('levels are coloured when asked, and a line that is not a JSON object passes through unchanged', () => {
  const colored = formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'x' }), { color: true })
  expect(colored).toContain('\u001b[31mERROR\u001b[39m')
  expect(formatLogLine('plain text')).toBe('plain text\n')
  expect(formatLogLine('[1,2]\n')).toBe('[1,2]\n')
  expect(formatLogLine(JSON.stringify({ level: 30, time: 'not a time', msg: 'x' }))).toBe(
    '--:--:--.--- INFO  x\n',
  )
})
