import { expect, test } from 'vitest'
import { AppError, isAppError, rateLimited } from './errors.ts'

test('an AppError is recognised by class, and by shape when another copy of the module threw it', () => {
  expect(isAppError(new AppError('not_found', 'No such thing'))).toBe(true)
  const fromOtherCopy = Object.assign(new Error('No such thing'), {
    name: 'AppError',
    code: 'not_found',
    details: {},
  })
  expect(isAppError(fromOtherCopy, 'not_found')).toBe(true)
  expect(isAppError(fromOtherCopy, 'conflict')).toBe(false)
})

test('other errors and look-alikes without a code are not AppErrors', () => {
  expect(isAppError(new Error('boom'))).toBe(false)
  expect(isAppError(Object.assign(new Error('x'), { name: 'AppError' }))).toBe(false)
  expect(isAppError({ name: 'AppError', code: 'invalid', details: {} })).toBe(false)
  expect(isAppError(null)).toBe(false)
})

test('rateLimited carries its wait and, when given, its reason', () => {
  const error = rateLimited('Too many', 30, 'contactTooMany')
  expect(error).toMatchObject({
    code: 'rate_limited',
    details: { retryAfterSeconds: 30, reason: 'contactTooMany' },
  })
  expect(rateLimited('Too many', 5).details).toEqual({ retryAfterSeconds: 5 })
})
