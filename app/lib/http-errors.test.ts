import { isRouteErrorResponse } from 'react-router'
import { expect, test } from 'vitest'
import { AppError, type AppErrorCode } from '#core/shared/errors.ts'
import en from '../locales/en.ts'
import es from '../locales/es.ts'
import { formFailure, httpStatusOf, messageKeyOf, publicErrorFrom, throwRouteError } from './http-errors.ts'

const CODES: AppErrorCode[] = [
  'invalid',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'upstream_failed',
  'unavailable',
]

function lookUp(messages: object, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], messages)
}

test('every code has a 4xx, 502 or 503 status and a message in both languages', () => {
  for (const code of CODES) {
    const status = httpStatusOf(code)
    expect(status === 502 || status === 503 || (status >= 400 && status < 500), code).toBe(true)
    const key = messageKeyOf(new AppError(code, 'x'))
    expect(typeof lookUp(en, key), `en ${key}`).toBe('string')
    expect(typeof lookUp(es, key), `es ${key}`).toBe('string')
  }
})

test('every reason the code base throws has its message in both languages', () => {
  for (const reason of Object.keys(en.errors.reasons)) {
    const key = messageKeyOf(new AppError('invalid', 'x', { reason }))
    expect(typeof lookUp(en, key)).toBe('string')
    expect(typeof lookUp(es, key)).toBe('string')
  }
})

test('a loader failure becomes a response with its status, Retry-After and message key, no developer text', () => {
  let thrown: unknown
  try {
    throwRouteError(new AppError('rate_limited', 'User 42 hit the limit', { retryAfterSeconds: 12 }))
  } catch (error) {
    thrown = error
  }
  const init = (thrown as { init: ResponseInit }).init
  expect(init.status).toBe(429)
  expect(new Headers(init.headers).get('Retry-After')).toBe('12')
  const body = (thrown as { data: unknown }).data
  expect(publicErrorFrom(body)).toEqual({
    code: 'rate_limited',
    messageKey: 'errors.codes.rateLimited',
    status: 429,
    retryAfterSeconds: 12,
  })
  expect(JSON.stringify(body)).not.toContain('User 42')
})

test('anything that is not an AppError is rethrown unchanged (a bug stays a 500)', () => {
  const bug = new TypeError('undefined is not a function')
  expect(() => throwRouteError(bug)).toThrow(bug)
  expect(() => formFailure(bug, { reply: () => null })).toThrow(bug)
  expect(isRouteErrorResponse(bug)).toBe(false)
})

test('a form failure keeps the field errors and puts the message key in the form errors', () => {
  const replies: unknown[] = []
  const answer = formFailure(
    new AppError('invalid', 'Password too common', { fieldErrors: { password: ['passwordTooCommon'] } }),
    {
      reply: (options) => {
        replies.push(options)
        return 'reply'
      },
    },
    { intent: 'signup' },
  )
  expect(replies).toEqual([
    { formErrors: ['errors.codes.invalid'], fieldErrors: { password: ['passwordTooCommon'] } },
  ])
  expect(answer.init?.status).toBe(400)
  expect(answer.data).toMatchObject({ intent: 'signup', result: 'reply', error: { code: 'invalid' } })
})

test('a database outage in a loader becomes 503 with Retry-After and the unavailable message', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
  const wrapped = new Error('Failed query: select 1', { cause: refused })
  let thrown: unknown
  try {
    throwRouteError(wrapped)
  } catch (error) {
    thrown = error
  }
  const init = (thrown as { init: ResponseInit }).init
  expect(init.status).toBe(503)
  expect(new Headers(init.headers).get('Retry-After')).toBe('5')
  expect(publicErrorFrom((thrown as { data: unknown }).data)).toEqual({
    code: 'unavailable',
    messageKey: 'errors.reasons.databaseUnavailable',
    status: 503,
    retryAfterSeconds: 5,
  })
})

test('a database outage in a form action keeps the form and says whether the change was saved', () => {
  const submission = {
    reply: (options?: { formErrors?: string[] }) => ({ values: { name: 'typed' }, ...options }),
  }
  const lost = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  })
  const answer = formFailure(lost, submission) as unknown as {
    data: { result: { values: unknown; formErrors: string[] } }
    init: { status: number; headers: Record<string, string> }
  }
  expect(answer.init.status).toBe(503)
  expect(answer.init.headers).toEqual({ 'Retry-After': '5' })
  expect(answer.data.result).toEqual({
    values: { name: 'typed' },
    formErrors: ['errors.reasons.databaseUnavailableCheck'],
  })
  const refused = new Error('timeout exceeded when trying to connect')
  const refusedAnswer = formFailure(refused, submission) as unknown as {
    data: { result: { formErrors: string[] } }
  }
  expect(refusedAnswer.data.result.formErrors).toEqual(['errors.reasons.databaseUnavailableNotSaved'])
})
