import { expect, test } from 'vitest'
import { createWhatsAppClient, signWebhookBody, verifyWebhookSignature, WhatsAppSendError } from './client.ts'
import { whatsappConfigFromEnv } from './config.ts'
import { isStopWord } from './dispatch.ts'
import { buildCodeTemplate, buildNotificationTemplate, categoryOf } from './templates.ts'
import { parseWebhookBody } from './webhook.ts'

const FULL = {
  WHATSAPP_PHONE_NUMBER_ID: '1098765432109',
  WHATSAPP_ACCESS_TOKEN: 'EAAG-token',
  WHATSAPP_APP_SECRET: 'app-secret',
  WHATSAPP_VERIFY_TOKEN: 'verify-token-0123456789',
}

test('configuration: none is off, all four is on, halves and unsafe addresses stop the start', () => {
  expect(whatsappConfigFromEnv({})).toBeNull()
  expect(whatsappConfigFromEnv({ WHATSAPP_ACCESS_TOKEN: '  ' })).toBeNull()
  expect(whatsappConfigFromEnv(FULL)).toMatchObject({
    apiUrl: 'https://graph.facebook.com/v23.0',
    phoneNumberId: '1098765432109',
  })
  expect(() => whatsappConfigFromEnv({ WHATSAPP_ACCESS_TOKEN: 'x' })).toThrow(
    /WHATSAPP_PHONE_NUMBER_ID: required with WHATSAPP_ACCESS_TOKEN[\s\S]*WHATSAPP_APP_SECRET[\s\S]*WHATSAPP_VERIFY_TOKEN/,
  )
  expect(() =>
    whatsappConfigFromEnv({ ...FULL, WHATSAPP_API_URL: 'http://graph.example.com/v23.0' }),
  ).toThrow(/WHATSAPP_API_URL/)
  expect(() => whatsappConfigFromEnv({ ...FULL, WHATSAPP_API_URL: 'https://x.example/v23.0?a=b' })).toThrow(
    /WHATSAPP_API_URL/,
  )
  expect(whatsappConfigFromEnv({ ...FULL, WHATSAPP_API_URL: 'http://127.0.0.1:4020/v23.0/' })?.apiUrl).toBe(
    'http://127.0.0.1:4020/v23.0',
  )
  expect(() => whatsappConfigFromEnv({ ...FULL, WHATSAPP_PHONE_NUMBER_ID: '+52 55' })).toThrow(
    /PHONE_NUMBER_ID/,
  )
  expect(() => whatsappConfigFromEnv({ ...FULL, WHATSAPP_VERIFY_TOKEN: 'short' })).toThrow(/VERIFY_TOKEN/)
})

test('the webhook signature: the HMAC of the exact bytes with the app secret', () => {
  const body = '{"object":"whatsapp_business_account","entry":[]}'
  const header = signWebhookBody('app-secret', body)
  expect(header).toMatch(/^sha256=[0-9a-f]{64}$/)
  expect(verifyWebhookSignature('app-secret', body, header)).toBe(true)
  expect(
    verifyWebhookSignature('app-secret', Buffer.from(body), header.toUpperCase().replace('SHA256', 'sha256')),
  ).toBe(true)
  expect(verifyWebhookSignature('app-secret', `${body} `, header)).toBe(false)
  expect(verifyWebhookSignature('other-secret', body, header)).toBe(false)
  expect(verifyWebhookSignature('app-secret', body, undefined)).toBe(false)
  expect(verifyWebhookSignature('app-secret', body, header.slice(7))).toBe(false)
  expect(verifyWebhookSignature('app-secret', body, 'sha256=abc')).toBe(false)
})

test('templates: parameters in order, yen and counts formatted per language, the link as the button suffix', () => {
  expect(
    buildNotificationTemplate(
      'quote_ready',
      { number: 'PR-000001', totalJpy: 12500 },
      'es',
      '/user-dashboard/requests/abc',
    ),
  ).toEqual({
    name: 'order_quote_ready',
    language: 'es',
    components: [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'PR-000001' },
          { type: 'text', text: expect.stringMatching(/^JPY\s12,500$/) },
        ],
      },
      {
        type: 'button',
        sub_type: 'url',
        index: '0',
        parameters: [{ type: 'text', text: 'user-dashboard/requests/abc' }],
      },
    ],
  })
  const shipped = buildNotificationTemplate(
    'shipment_shipped',
    { number: 'SH-1', carrier: 'Japan Post EMS', tracking: 'EJ1\n23\tJP' },
    'en',
    '/user-dashboard/shipments/1',
  )
  expect(shipped?.components[0]?.parameters.map((p) => p.text)).toEqual([
    'SH-1',
    'Japan Post EMS',
    'EJ1 23 JP',
  ])
  // A param the template needs is missing, or not a whole number of yen: no template.
  expect(
    buildNotificationTemplate('shipment_shipped', { number: 'SH-1', carrier: 'EMS' }, 'en', '/x'),
  ).toBeNull()
  expect(
    buildNotificationTemplate('payment_received', { number: 'PR-1', amountJpy: '500' }, 'en', '/x'),
  ).toBeNull()
  expect(buildNotificationTemplate('quote_revised', { number: '   ' }, 'en', '/x')).toBeNull()
  // A type with no template (not a WhatsApp update).
  expect(buildNotificationTemplate('request_received', { number: 'PR-1' }, 'en', '/x')).toBeNull()
  expect(buildCodeTemplate('012345', 'en').components.map((c) => c.parameters[0]?.text)).toEqual([
    '012345',
    '012345',
  ])
})

test('categories: order updates only', () => {
  expect(categoryOf('quote_revised')).toBe('quote')
  expect(categoryOf('shipment_paid')).toBe('payment')
  expect(categoryOf('refund_confirmed')).toBe('refund')
  expect(categoryOf('new_message')).toBe('message')
  expect(categoryOf('storage_reminder')).toBeNull()
})

test('STOP words in either language, any case, with accents or punctuation', () => {
  for (const word of ['STOP', 'stop', ' Stop. ', 'PARAR', 'parar', 'Baja', 'ALTO', 'cancelar', 'Detener!']) {
    expect(isStopWord(word)).toBe(true)
  }
  for (const word of ['stop sending me ads please', 'hola', '', null, 'STOPP']) {
    expect(isStopWord(word)).toBe(false)
  }
})

test('the webhook body: statuses and inbound texts read, anything else skipped', () => {
  const body = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1',
        changes: [
          {
            field: 'messages',
            value: {
              statuses: [
                { id: 'wamid.A', status: 'read', timestamp: '1700000000', recipient_id: '5215512345678' },
                { id: 'wamid.B', status: 'failed', timestamp: '1700000001', errors: [{ code: 131026 }] },
                { id: 'wamid.C', status: 'deleted', timestamp: '1700000002' },
                { nonsense: true },
              ],
              messages: [
                { id: 'wamid.in', from: '5215512345678', type: 'text', text: { body: 'STOP' } },
                { id: 'wamid.btn', from: '5215512345678', type: 'button', button: { text: 'Parar' } },
                { id: 'wamid.bad', from: 'not-a-number', type: 'text', text: { body: 'STOP' } },
              ],
            },
          },
        ],
      },
    ],
  }
  expect(parseWebhookBody(JSON.stringify(body))).toEqual({
    statuses: [
      { wamid: 'wamid.A', status: 'read', at: new Date(1700000000_000), errorCode: null },
      { wamid: 'wamid.B', status: 'failed', at: new Date(1700000001_000), errorCode: 131026 },
    ],
    inbound: [
      { id: 'wamid.in', from: '+5215512345678', text: 'STOP' },
      { id: 'wamid.btn', from: '+5215512345678', text: 'Parar' },
    ],
  })
  expect(parseWebhookBody('{')).toBeNull()
  expect(parseWebhookBody(JSON.stringify({ object: 'page', entry: [] }))).toBeNull()
})

test('the client sends Meta’s shape with the bearer token and sorts errors into retry and permanent', async () => {
  const config = whatsappConfigFromEnv(FULL)
  if (!config) throw new Error('no config')
  const calls: { url: string; init: RequestInit }[] = []
  const answers: Response[] = [
    Response.json({ messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] }),
    Response.json({ error: { code: 130429 } }, { status: 429 }),
    Response.json({ error: { code: 131056 } }, { status: 400 }),
    Response.json({ error: { code: 132001 } }, { status: 404 }),
    Response.json({ error: { code: 131047 } }, { status: 400 }),
    new Response('<html>', { status: 502 }),
  ]
  const fetchStub: typeof fetch = async (url, init) => {
    calls.push({ url: String(url), init: init ?? {} })
    const next = answers.shift()
    if (!next) throw new TypeError('fetch failed')
    return next
  }
  const client = createWhatsAppClient(config, fetchStub)
  const message = { to: '+5215512345678', ...buildCodeTemplate('123456', 'es') }
  expect(await client.sendTemplate(message)).toEqual({ wamid: 'wamid.1' })
  expect(calls[0]?.url).toBe('https://graph.facebook.com/v23.0/1098765432109/messages')
  const sentHeaders = (calls[0]?.init.headers ?? {}) as Record<string, string>
  expect(sentHeaders.authorization).toBe('Bearer EAAG-token')
  expect(JSON.parse(String(calls[0]?.init.body))).toMatchObject({
    messaging_product: 'whatsapp',
    to: '5215512345678',
    type: 'template',
    template: { name: 'account_verification_code', language: { code: 'es' } },
  })
  const kinds = []
  for (let i = 0; i < 6; i++) {
    const error = await client.sendTemplate(message).catch((caught) => caught)
    expect(error).toBeInstanceOf(WhatsAppSendError)
    kinds.push([error.kind, error.code])
  }
  expect(kinds).toEqual([
    ['retry', 130429],
    ['retry', 131056],
    ['permanent', 132001],
    ['permanent', 131047],
    ['retry', null],
    ['retry', null],
  ])
})
