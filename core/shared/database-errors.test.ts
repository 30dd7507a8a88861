import { expect, test } from 'vitest'
import { databaseOutageOf, databaseUnavailableError, isDatabaseUnavailable } from './database-errors.ts'
import { AppError } from './errors.ts'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

test('connection failures are recognised, raw or wrapped in a cause chain', () => {
  expect(databaseOutageOf(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe('refused')
  expect(databaseOutageOf(withCode('the database system is starting up', '57P03'))).toBe('refused')
  expect(databaseOutageOf(new Error('timeout exceeded when trying to connect'))).toBe('refused')
  expect(databaseOutageOf(new Error('Connection terminated due to connection timeout'))).toBe('refused')
  expect(databaseOutageOf(withCode('read ECONNRESET', 'ECONNRESET'))).toBe('lost')
  expect(databaseOutageOf(withCode('terminating connection due to administrator command', '57P01'))).toBe(
    'lost',
  )
  expect(databaseOutageOf(new Error('Connection terminated unexpectedly'))).toBe('lost')
  const drizzle = new Error('Failed query: select …', {
    cause: new Error('Connection terminated unexpectedly'),
  })
  expect(databaseOutageOf(drizzle)).toBe('lost')
  expect(databaseOutageOf(new Error('outer', { cause: drizzle }))).toBe('lost')
  // Re-wrapped without a code, as pg-boss's workers report them.
  expect(databaseOutageOf({ message: 'connect ECONNREFUSED 127.0.0.1:5432 (Queue: q, Worker: w)' })).toBe(
    'refused',
  )
  expect(databaseOutageOf({ message: 'the database system is starting up (Queue: q, Worker: w)' })).toBe(
    'refused',
  )
  expect(databaseOutageOf({ message: 'read ECONNRESET' })).toBe('lost')
})

test('domain failures, bugs and SQL errors are not outages', () => {
  expect(isDatabaseUnavailable(new AppError('conflict', 'x'))).toBe(false)
  expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false)
  expect(isDatabaseUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(
    false,
  )
  expect(isDatabaseUnavailable(withCode('relation "x" does not exist', '42P01'))).toBe(false)
  expect(isDatabaseUnavailable(null)).toBe(false)
  expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false)
  const cycle: Error & { cause?: unknown } = new Error('a')
  cycle.cause = cycle
  expect(isDatabaseUnavailable(cycle)).toBe(false)
})

test('an outage becomes unavailable (503) with Retry-After and a reason that says what was saved', () => {
  const refused = withCode('connect ECONNREFUSED', 'ECONNREFUSED')
  const lost = new Error('Connection terminated unexpectedly')
  expect(databaseUnavailableError(refused)?.details).toEqual({
    reason: 'databaseUnavailable',
    retryAfterSeconds: 5,
  })
  expect(databaseUnavailableError(refused, { write: true })?.details.reason).toBe(
    'databaseUnavailableNotSaved',
  )
  expect(databaseUnavailableError(lost, { write: true })?.details.reason).toBe('databaseUnavailableCheck')
  expect(databaseUnavailableError(lost)?.code).toBe('unavailable')
  expect(databaseUnavailableError(new Error('bug'))).toBeNull()
})
