import { and, eq, lte } from 'drizzle-orm'
import { rateLimited } from '#core/shared/errors.ts'
import { consumeRateLimit, type RateLimitRule } from '#core/shared/rate-limit.ts'
import type { Database } from '#db/client.ts'
import { contactMessages } from '#db/schema/index.ts'
import type { ContactMessageInput } from './contact-schemas.ts'

/** Five messages per IP address per quarter hour: enough for a person, little for a script. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 }

/** Delay before attempt n+1 after n failures; after the last, the message is marked failed. */
export const FORWARD_BACKOFF_SECONDS = [30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600]

export type ContactForwarding = {
  /** The external form service's access key; null when forwarding is off. */
  accessKey: string | null
  endpoint: string
  fetch?: typeof fetch
  timeoutMs?: number
}

export type ContactService = {
  /**
   * Stores a message (first, always), rate limited per client. A bot-check hit is stored as
   * spam and answered like a success.
   * @throws AppError `rate_limited` with the seconds until the next window.
   */
  submit(
    input: ContactMessageInput,
    meta: { clientKey: string; language: string },
  ): Promise<{ id: string; forward: boolean }>
  /**
   * Sends due messages to the form service. Safe to run in several processes at once: each row
   * is claimed with FOR UPDATE SKIP LOCKED. Returns how many were sent and how many failed.
   */
  forwardPending(now?: Date): Promise<{ sent: number; failed: number }>
}

export function createContactService({
  db,
  forwarding,
}: {
  db: Database
  forwarding: ContactForwarding
}): ContactService {
  const doFetch = forwarding.fetch ?? fetch

  async function sendOne(row: typeof contactMessages.$inferSelect): Promise<string | null> {
    try {
      const response = await doFetch(forwarding.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          access_key: forwarding.accessKey,
          botcheck: false,
          name: row.name,
          email: row.email,
          subject: `[${row.subject}] ${row.name}`,
          message: row.message,
        }),
        signal: AbortSignal.timeout(forwarding.timeoutMs ?? 10_000),
      })
      const body = (await response.json().catch(() => null)) as { success?: boolean; message?: string } | null
      if (response.ok && body?.success !== false) return null
      return `HTTP ${response.status}${body?.message ? `: ${body.message}` : ''}`.slice(0, 500)
    } catch (error) {
      return String((error as Error).message ?? error).slice(0, 500)
    }
  }

  return {
    async submit(input, meta) {
      const limit = await consumeRateLimit(db, `contact:${meta.clientKey}`, CONTACT_RATE_LIMIT)
      if (!limit.allowed) {
        throw rateLimited(
          `Contact form rate limit reached for ${meta.clientKey}`,
          limit.retryAfterSeconds,
          'contactTooMany',
        )
      }
      const forward = !input.botcheck && forwarding.accessKey !== null
      const [row] = await db
        .insert(contactMessages)
        .values({
          name: input.name,
          email: input.email,
          subject: input.subject,
          message: input.message,
          language: meta.language,
          isSpam: input.botcheck,
          forwardStatus: input.botcheck ? 'skipped' : forward ? 'pending' : 'not_configured',
          nextAttemptAt: forward ? new Date() : null,
        })
        .returning({ id: contactMessages.id })
      if (!row) throw new Error('Unable to store a contact message: no row returned')
      return { id: row.id, forward }
    },

    async forwardPending(now = new Date()) {
      if (forwarding.accessKey === null) return { sent: 0, failed: 0 }
      let sent = 0
      let failed = 0
      // One message per transaction: a slow form service never holds many locks at once.
      for (let i = 0; i < 20; i++) {
        const outcome = await db.transaction(async (tx) => {
          const [row] = await tx
            .select()
            .from(contactMessages)
            .where(and(eq(contactMessages.forwardStatus, 'pending'), lte(contactMessages.nextAttemptAt, now)))
            .orderBy(contactMessages.nextAttemptAt)
            .limit(1)
            .for('update', { skipLocked: true })
          if (!row) return 'none' as const
          const error = await sendOne(row)
          const attempts = row.forwardAttempts + 1
          if (error === null) {
            await tx
              .update(contactMessages)
              .set({
                forwardStatus: 'sent',
                forwardAttempts: attempts,
                forwardedAt: new Date(),
                lastError: null,
                nextAttemptAt: null,
              })
              .where(eq(contactMessages.id, row.id))
            return 'sent' as const
          }
          const delay = FORWARD_BACKOFF_SECONDS[attempts - 1]
          await tx
            .update(contactMessages)
            .set({
              forwardAttempts: attempts,
              lastError: error,
              forwardStatus: delay === undefined ? 'failed' : 'pending',
              nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay * 1000),
            })
            .where(eq(contactMessages.id, row.id))
          return 'failed' as const
        })
        if (outcome === 'none') break
        if (outcome === 'sent') sent += 1
        else failed += 1
      }
      return { sent, failed }
    },
  }
}
