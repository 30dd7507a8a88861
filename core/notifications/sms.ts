import { desc } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { outboxSms } from '#db/schema/index.ts'

export type OutgoingSms = { to: string; text: string }

/** Where text messages go: the development outbox, or a provider over HTTP. */
export type SmsSender = {
  send(message: OutgoingSms): Promise<void>
  /** For the start-up log. */
  readonly kind: 'outbox' | 'twilio'
}

/** The provider refused or could not be reached; the message was not sent. */
export class SmsDeliveryError extends Error {
  readonly status: number | null

  constructor(message: string, status: number | null) {
    super(message)
    this.name = 'SmsDeliveryError'
    this.status = status
  }
}

/** Development: messages are stored and shown at /dev/outbox instead of being sent. */
export function createOutboxSmsSender({ db }: { db: Database }): SmsSender {
  return {
    kind: 'outbox',
    async send(message) {
      await db.insert(outboxSms).values(message)
    },
  }
}

export type TwilioConfig = {
  accountSid: string
  authToken: string
  /** The sending number (E.164) or messaging service id. */
  from: string
  /** https://api.twilio.com in production; a local stand-in in tests. */
  apiUrl: string
  timeoutMs?: number
}

/**
 * Twilio's Programmable Messaging REST API: POST /2010-04-01/Accounts/{sid}/Messages.json,
 * form-encoded To/From/Body, HTTP basic auth; 201 with the message resource on success.
 */
export function createTwilioSmsSender(config: TwilioConfig): SmsSender {
  const endpoint = new URL(
    `/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`,
    config.apiUrl,
  )
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`
  return {
    kind: 'twilio',
    async send(message) {
      const body = new URLSearchParams({ To: message.to, Body: message.text })
      body.set(config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', config.from)
      let response: Response
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
        })
      } catch (error) {
        throw new SmsDeliveryError(`SMS provider unreachable: ${(error as Error).message}`, null)
      }
      if (response.status !== 201 && response.status !== 200) {
        const detail = (await response.json().catch(() => null)) as { message?: string } | null
        throw new SmsDeliveryError(
          `SMS provider answered ${response.status}${detail?.message ? `: ${detail.message}` : ''}`,
          response.status,
        )
      }
    },
  }
}

export async function listSmsOutbox(db: Database, limit = 20) {
  return db.select().from(outboxSms).orderBy(desc(outboxSms.createdAt)).limit(limit)
}
