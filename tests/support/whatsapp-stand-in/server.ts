import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { signWebhookBody } from '#core/whatsapp/client.ts'
import { WHATSAPP_CODE_TEMPLATE, WHATSAPP_TEMPLATES } from '#core/whatsapp/templates.ts'

/**
 * A local stand-in of the WhatsApp Business Cloud API, for tests and development: a real HTTP
 * server speaking the part core/whatsapp uses (docs/decisions/049).
 *
 * - POST /v23.0/:phoneNumberId/messages: checks the bearer token and the phone number id, the
 *   body's `messaging_product` and `type: template`, the template's name against its own list of
 *   approved ones (132001 if unknown), its language (es or en) and body parameter count (132000),
 *   and answers `{ messaging_product, contacts, messages: [{ id: wamid }] }`.
 * - Meta-shaped errors on demand: `rateLimitNext(n)` (429 with 130429, then fine),
 *   `failNext(n)` (500 with 131000), numbers that stopped (`optedOut`: 131050) or are not on
 *   WhatsApp (`undeliverable`: 131026).
 * - `sent`: the messages it accepted, for tests to read (`lastCode(to)` finds an opt-in code).
 * - `sendStatus()`, `sendInbound()`: posts a webhook to `webhookUrl`, signed with the app secret
 *   as Meta does (`X-Hub-Signature-256`); `sendForged()` signs with another secret.
 *
 * Over HTTP (a browser test's stand-in runs in its own process): GET /_stand-in/sent lists `sent`,
 * POST /_stand-in/inbound `{ from, text }` sends an inbound message webhook.
 *
 * Standalone: `node tests/support/whatsapp-stand-in/server.ts --port 4020 --webhook-url
 * http://localhost:3000/api/whatsapp/webhook` prints the environment for the app.
 */
export const WHATSAPP_STAND_IN_CREDENTIALS = {
  phoneNumberId: '1098765432109',
  accessToken: 'stand-in-whatsapp-token',
  appSecret: 'stand-in-whatsapp-app-secret',
  verifyToken: 'stand-in-verify-token-0123',
} as const

export type SentMessage = {
  wamid: string
  to: string
  template: string
  language: string
  body: string[]
  button: string[]
}

const APPROVED: Record<string, number> = {
  [WHATSAPP_CODE_TEMPLATE]: 1,
  ...Object.fromEntries(Object.values(WHATSAPP_TEMPLATES).map((t) => [t.name, t.body.length])),
}

export type WhatsAppStandIn = {
  url: string
  /** The environment that points the app at this stand-in. */
  env: Record<string, string>
  sent: SentMessage[]
  /** Every API request received (path and status answered). */
  calls: { path: string; status: number }[]
  /** Numbers (E.164) that stopped marketing messages: 131050. */
  optedOut: Set<string>
  /** Numbers not on WhatsApp: 131026. */
  undeliverable: Set<string>
  rateLimitNext(count?: number): void
  failNext(count?: number): void
  /** The code in the last code template sent to this number. */
  lastCode(to: string): string | null
  webhookUrl: string | null
  sendStatus(input: {
    wamid: string
    status: 'sent' | 'delivered' | 'read' | 'failed'
    to?: string
    timestamp?: number
    errorCode?: number
  }): Promise<Response>
  sendInbound(input: { from: string; text: string; id?: string }): Promise<Response>
  /** Posts a body signed with another secret. */
  sendForged(body: object): Promise<Response>
  /** Posts the body exactly as given, signed. */
  sendRaw(raw: string): Promise<Response>
  close(): Promise<void>
}

export async function startWhatsAppStandIn(
  options: { port?: number; host?: string; webhookUrl?: string | null } = {},
): Promise<WhatsAppStandIn> {
  const creds = WHATSAPP_STAND_IN_CREDENTIALS
  let rateLimited = 0
  let failing = 0
  const state = {
    sent: [] as SentMessage[],
    calls: [] as { path: string; status: number }[],
    optedOut: new Set<string>(),
    undeliverable: new Set<string>(),
  }
  const metaError = (res: ServerResponse, path: string, status: number, code: number, message: string) => {
    state.calls.push({ path, status })
    json(res, status, {
      error: {
        message,
        type: 'OAuthException',
        code,
        error_data: { messaging_product: 'whatsapp', details: message },
        fbtrace_id: 'stand-in',
      },
    })
  }

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname
    // Test controls over HTTP, for browser tests that run the stand-in in its own process.
    if (req.method === 'GET' && path === '/_stand-in/sent') return json(res, 200, { sent: state.sent })
    if (req.method === 'POST' && path === '/_stand-in/inbound') {
      const input = await readJson(req)
      const answer = await standIn.sendInbound({
        from: String(input?.from ?? ''),
        text: String(input?.text ?? ''),
      })
      return json(res, 200, { status: answer.status })
    }
    const match = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(path)
    if (req.method !== 'POST' || !match) return metaError(res, path, 404, 100, 'Unknown path')
    if (req.headers.authorization !== `Bearer ${creds.accessToken}`)
      return metaError(res, path, 401, 190, 'Invalid OAuth access token')
    if (match[1] !== creds.phoneNumberId) return metaError(res, path, 400, 100, 'Unknown phone number id')
    const body = await readJson(req)
    if (rateLimited > 0) {
      rateLimited--
      return metaError(res, path, 429, 130429, 'Rate limit hit')
    }
    if (failing > 0) {
      failing--
      return metaError(res, path, 500, 131000, 'Something went wrong')
    }
    const template = body?.template
    if (
      body?.messaging_product !== 'whatsapp' ||
      body?.type !== 'template' ||
      typeof body?.to !== 'string' ||
      !template
    )
      return metaError(res, path, 400, 100, 'Invalid parameter')
    const expected = APPROVED[template.name]
    if (expected === undefined)
      return metaError(res, path, 404, 132001, 'Template name does not exist in the translation')
    if (!['es', 'en'].includes(template.language?.code))
      return metaError(res, path, 404, 132001, 'Template language missing')
    const components = Array.isArray(template.components) ? template.components : []
    const texts = (type: string) =>
      (components.find((c: { type?: string }) => c.type === type)?.parameters ?? []).map(
        (p: { text?: unknown }) => String(p.text ?? ''),
      ) as string[]
    const bodyParams = texts('body')
    if (bodyParams.length !== expected || bodyParams.some((text) => text === '' || /[\n\t]/.test(text)))
      return metaError(
        res,
        path,
        400,
        132000,
        'Number of parameters does not match the expected number of params',
      )
    const to = `+${body.to}`
    if (!/^\+[1-9]\d{7,14}$/.test(to))
      return metaError(res, path, 400, 131009, 'Parameter value is not valid')
    if (state.undeliverable.has(to)) return metaError(res, path, 400, 131026, 'Message undeliverable')
    if (state.optedOut.has(to))
      return metaError(res, path, 400, 131050, 'User has stopped marketing messages')
    const wamid = `wamid.${randomBytes(12).toString('base64url')}`
    state.sent.push({
      wamid,
      to,
      template: template.name,
      language: template.language.code,
      body: bodyParams,
      button: texts('button'),
    })
    state.calls.push({ path, status: 200 })
    json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: wamid, message_status: 'accepted' }],
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  const post = async (raw: string, secret: string) => {
    if (!standIn.webhookUrl) throw new Error('The WhatsApp stand-in has no webhook URL')
    return fetch(standIn.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(secret, raw) },
      body: raw,
    })
  }
  const envelope = (value: object) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: creds.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  })

  const standIn: WhatsAppStandIn = {
    url,
    env: {
      WHATSAPP_API_URL: `${url}/v23.0`,
      WHATSAPP_PHONE_NUMBER_ID: creds.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: creds.accessToken,
      WHATSAPP_APP_SECRET: creds.appSecret,
      WHATSAPP_VERIFY_TOKEN: creds.verifyToken,
    },
    ...state,
    rateLimitNext(count = 1) {
      rateLimited = count
    },
    failNext(count = 1) {
      failing = count
    },
    lastCode(to) {
      const last = state.sent.filter((m) => m.to === to && m.template === WHATSAPP_CODE_TEMPLATE).at(-1)
      return last?.body[0] ?? null
    },
    webhookUrl: options.webhookUrl ?? null,
    sendStatus({ wamid, status, to = '+5215512345678', timestamp, errorCode }) {
      const at = timestamp ?? Math.floor(Date.now() / 1000)
      return post(
        JSON.stringify(
          envelope({
            statuses: [
              {
                id: wamid,
                status,
                timestamp: String(at),
                recipient_id: to.replace(/^\+/, ''),
                ...(status === 'failed' && errorCode
                  ? { errors: [{ code: errorCode, title: 'Message failed', message: 'Message failed' }] }
                  : {}),
              },
            ],
          }),
        ),
        creds.appSecret,
      )
    },
    sendInbound({ from, text, id }) {
      const wa = from.replace(/^\+/, '')
      return post(
        JSON.stringify(
          envelope({
            contacts: [{ profile: { name: 'Cliente' }, wa_id: wa }],
            messages: [
              {
                from: wa,
                id: id ?? `wamid.in.${randomBytes(8).toString('hex')}`,
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: 'text',
                text: { body: text },
              },
            ],
          }),
        ),
        creds.appSecret,
      )
    },
    sendForged(body) {
      return post(JSON.stringify(body), 'not-the-app-secret')
    },
    sendRaw(raw) {
      return post(raw, creds.appSecret)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return standIn
}

function json(res: ServerResponse, status: number, body: object) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

async function readJson(req: IncomingMessage) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    return null
  }
}

// Standalone: prints the environment and each message sent.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'webhook-url': { type: 'string' } } })
  const standIn = await startWhatsAppStandIn({
    port: Number(values.port ?? 4020),
    webhookUrl: values['webhook-url'] ?? null,
  })
  for (const [name, value] of Object.entries(standIn.env)) console.log(`${name}=${value}`)
}
