import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTwilioSmsSender, SmsDeliveryError } from './sms.ts'

// A local stand-in for Twilio's Messages endpoint: checks the credentials and records requests.
const received: { path: string; authorization: string | undefined; body: URLSearchParams }[] = []
let answer: { status: number; body: object } = { status: 201, body: { sid: 'SM1', status: 'queued' } }
const server = createServer(async (req: IncomingMessage, res) => {
  let raw = ''
  for await (const chunk of req) raw += chunk
  received.push({
    path: req.url ?? '',
    authorization: req.headers.authorization,
    body: new URLSearchParams(raw),
  })
  const expected = `Basic ${Buffer.from('AC123:secret-token').toString('base64')}`
  const status = req.headers.authorization === expected ? answer.status : 401
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(status === 401 ? { code: 20003, message: 'Authenticate' } : answer.body))
})
let apiUrl = ''

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

test('sends To, From and Body form-encoded to the account’s Messages endpoint with basic auth', async () => {
  const sender = createTwilioSmsSender({
    accountSid: 'AC123',
    authToken: 'secret-token',
    from: '+15005550006',
    apiUrl,
  })
  await sender.send({ to: '+34600111222', text: 'Tu código: 123456' })
  const request = received.at(-1)
  expect(request?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json')
  expect(Object.fromEntries(request?.body ?? [])).toEqual({
    To: '+34600111222',
    From: '+15005550006',
    Body: 'Tu código: 123456',
  })
})

test('a messaging service id is sent as MessagingServiceSid', async () => {
  const sender = createTwilioSmsSender({
    accountSid: 'AC123',
    authToken: 'secret-token',
    from: 'MG999',
    apiUrl,
  })
  await sender.send({ to: '+34600111222', text: 'x' })
  expect(received.at(-1)?.body.get('MessagingServiceSid')).toBe('MG999')
  expect(received.at(-1)?.body.has('From')).toBe(false)
})

test('a refusal or bad credentials become an SmsDeliveryError with the provider’s status and message', async () => {
  const wrong = createTwilioSmsSender({ accountSid: 'AC123', authToken: 'wrong', from: '+1500', apiUrl })
  await expect(wrong.send({ to: '+34600111222', text: 'x' })).rejects.toMatchObject({
    name: 'SmsDeliveryError',
    status: 401,
    message: 'SMS provider answered 401: Authenticate',
  })
  answer = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } }
  const sender = createTwilioSmsSender({
    accountSid: 'AC123',
    authToken: 'secret-token',
    from: '+1500',
    apiUrl,
  })
  await expect(sender.send({ to: '+1', text: 'x' })).rejects.toBeInstanceOf(SmsDeliveryError)
  answer = { status: 201, body: { sid: 'SM1' } }
})

test('an unreachable provider is an SmsDeliveryError, not a hang', async () => {
  const sender = createTwilioSmsSender({
    accountSid: 'AC123',
    authToken: 'secret-token',
    from: '+1500',
    apiUrl: 'http://127.0.0.1:9',
    timeoutMs: 2000,
  })
  await expect(sender.send({ to: '+34600111222', text: 'x' })).rejects.toMatchObject({ status: null })
})
