import { createHmac, timingSafeEqual } from 'node:crypto'
import type { WhatsAppConfig } from './config.ts'

/** A template message as the Cloud API takes it (`type: "template"`). */
export type TemplateMessage = {
  /** E.164 with the plus: +5215512345678 (sent without it, as Meta's wa_id). */
  to: string
  name: string
  /** `es` or `en` (docs/decisions/049). */
  language: string
  components: TemplateComponent[]
}

export type TemplateComponent =
  | { type: 'body'; parameters: { type: 'text'; text: string }[] }
  | { type: 'button'; sub_type: 'url'; index: string; parameters: { type: 'text'; text: string }[] }

/**
 * Why Meta did not take a message. `retry`: try again later (429, 5xx, rate limits 130429 and
 * 131056, network failure, an answer we cannot read). `permanent`: it will not go (undeliverable
 * 131026, re-engagement 131047, marketing stopped 131050, template missing or wrong 132xxx, a
 * number not allowed): the e-mail goes instead.
 */
export class WhatsAppSendError extends Error {
  readonly kind: 'retry' | 'permanent'
  readonly code: number | null
  readonly status: number | null

  constructor(message: string, kind: 'retry' | 'permanent', code: number | null, status: number | null) {
    super(message)
    this.name = 'WhatsAppSendError'
    this.kind = kind
    this.code = code
    this.status = status
  }
}

/** Meta error codes worth another try: throttling and Meta's own trouble. */
const RETRY_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004])

export type WhatsAppClient = {
  readonly config: WhatsAppConfig
  /** Sends a template; resolves with Meta's message id (wamid). */
  sendTemplate(message: TemplateMessage): Promise<{ wamid: string }>
}

export function createWhatsAppClient(
  config: WhatsAppConfig,
  fetchImpl: typeof fetch = globalThis.fetch,
): WhatsAppClient {
  const endpoint = `${config.apiUrl}/${encodeURIComponent(config.phoneNumberId)}/messages`
  return {
    config,
    async sendTemplate(message) {
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: message.to.replace(/^\+/, ''),
        type: 'template',
        template: {
          name: message.name,
          language: { code: message.language },
          components: message.components,
        },
      }
      let response: Response
      try {
        response = await fetchImpl(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(config.timeoutMs),
        })
      } catch (error) {
        throw new WhatsAppSendError(`WhatsApp unreachable: ${(error as Error).name}`, 'retry', null, null)
      }
      const answer = (await response.json().catch(() => null)) as {
        messages?: { id?: unknown }[]
        error?: { code?: unknown; message?: unknown }
      } | null
      if (response.ok) {
        const wamid = answer?.messages?.[0]?.id
        if (typeof wamid === 'string' && wamid) return { wamid }
        throw new WhatsAppSendError('WhatsApp answered without a message id', 'retry', null, response.status)
      }
      const code = typeof answer?.error?.code === 'number' ? answer.error.code : null
      const retry =
        response.status === 429 ||
        response.status >= 500 ||
        response.status === 401 ||
        (code !== null && RETRY_CODES.has(code))
      throw new WhatsAppSendError(
        `WhatsApp answered ${response.status}${code !== null ? ` (code ${code})` : ''}`,
        retry ? 'retry' : 'permanent',
        code,
        response.status,
      )
    },
  }
}

/**
 * Checks `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the raw body with the app secret,
 * compared in constant time.
 */
export function verifyWebhookSignature(
  appSecret: string,
  rawBody: Buffer | string,
  header: string | undefined,
) {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')
  if (!match?.[1]) return false
  const expected = createHmac('sha256', appSecret).update(rawBody).digest()
  const given = Buffer.from(match[1], 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** The header a delivery of `rawBody` carries (the stand-in signs with it). */
export function signWebhookBody(appSecret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`
}
