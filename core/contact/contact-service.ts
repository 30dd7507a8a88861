import { and, eq, isNull, lte, or, sql } from 'drizzle-orm'
import type { JobContext } from '#core/jobs/job-queue.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { rateLimited } from '#core/shared/errors.ts'
import { consumeRateLimit, type RateLimitRule } from '#core/shared/rate-limit.ts'
import type { Database } from '#db/client.ts'
import { contactMessages } from '#db/schema/index.ts'
import type { ContactMessageInput } from './contact-schemas.ts'

/** Five messages per IP address per quarter hour: enough for a person, little for a script. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 }

export type ContactForwarding = {
  /** The external form service's access key; null when forwarding is off. */
  accessKey: string | null
  endpoint: string
  fetch?: typeof fetch
  timeoutMs?: number
}

export type ContactService = {
  /**
   * Stores a message (first, always), rate limited per client, and in the same transaction
   * enqueues its `contact.forward` job when it is to be forwarded. A bot-check hit is stored as
   * spam and answered like a success.
   * @throws AppError `rate_limited` with the seconds until the next window.
   */
  submit(
    input: ContactMessageInput,
    meta: { clientKey: string; language: string },
  ): Promise<{ id: string; forward: boolean }>
}

export function createContactService({
  db,
  forwarding,
  jobs,
}: {
  db: Database
  forwarding: Pick<ContactForwarding, 'accessKey'>
  jobs: AppJobEnqueuer
}): ContactService {
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
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contactMessages)
          .values({
            name: input.name,
            email: input.email,
            subject: input.subject,
            message: input.message,
            language: meta.language,
            isSpam: input.botcheck,
            forwardStatus: input.botcheck ? 'skipped' : forward ? 'pending' : 'not_configured',
          })
          .returning({ id: contactMessages.id })
        if (!row) throw new Error('Unable to store a contact message: no row returned')
        if (forward) await jobs.enqueue(tx, 'contact.forward', { messageId: row.id })
        return { id: row.id, forward }
      })
    },
  }
}

/**
 * One forwarding attempt: the `contact.forward` job's handler. The message is claimed with a
 * short lease (`next_attempt_at`) in its own statement, so no row lock is held across the HTTP
 * call, and a second attempt at the same message (a duplicate delivery) cannot post it while the
 * first may: it waits for the lease to lapse (or the message to be sent). Every attempt carries the
 * same `Idempotency-Key`; only a receiver that honours it makes a repeat after a crash between its
 * answer and our update harmless (ADR 009: forwarding is at least once).
 * Returns 'sent', or 'done' when there is nothing left to do (already sent, given up, spam).
 * @throws Error when the attempt failed (recorded on the row): the queue retries the job. On the
 * job's last attempt the row is marked `failed` first; it is never deleted.
 */
export async function forwardContactMessage(
  { db, forwarding }: { db: Database; forwarding: ContactForwarding },
  messageId: string,
  job: Pick<JobContext, 'lastAttempt' | 'signal'>,
): Promise<'sent' | 'done'> {
  const timeoutMs = forwarding.timeoutMs ?? 10_000
  // The attempt's POST is aborted after timeoutMs; the lease outlasts it by a little (the row's
  // update), so once it lapses no earlier attempt can still post. A retry whose worker died finds it
  // lapsed, or waits the few seconds left (the job's own lease lapses after 10 s).
  const leaseSeconds = Math.ceil(timeoutMs / 1000) + 2
  const claim = () =>
    db
      .update(contactMessages)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
      .where(
        and(
          eq(contactMessages.id, messageId),
          eq(contactMessages.forwardStatus, 'pending'),
          or(isNull(contactMessages.nextAttemptAt), lte(contactMessages.nextAttemptAt, sql`now()`)),
        ),
      )
      .returning()
  // Another attempt may hold the lease (one whose process died, or a duplicate delivery running
  // now): its POST ends within the lease, so wait that out, looking again every quarter second.
  const giveUpAt = Date.now() + (leaseSeconds + 1) * 1000
  let [row] = await claim()
  while (!row) {
    const [current] = await db
      .select({
        status: contactMessages.forwardStatus,
        leftMs: sql<number>`greatest(0, extract(epoch from ${contactMessages.nextAttemptAt} - now()) * 1000)::float8`,
      })
      .from(contactMessages)
      .where(eq(contactMessages.id, messageId))
    if (current?.status !== 'pending') return 'done'
    if (Date.now() + Math.min(current.leftMs, 250) > giveUpAt)
      throw new Error(`Contact message ${messageId} is being forwarded already`)
    await abortableDelay(Math.min(current.leftMs + 20, 250), job.signal)
    ;[row] = await claim()
  }
  if (forwarding.accessKey === null) {
    // Forwarding was switched off after the message was stored.
    await db
      .update(contactMessages)
      .set({ forwardStatus: 'not_configured', nextAttemptAt: null })
      .where(eq(contactMessages.id, row.id))
    return 'done'
  }

  const error = await postToFormService(
    forwarding,
    row,
    AbortSignal.any([job.signal, AbortSignal.timeout(timeoutMs)]),
  )
  await db
    .update(contactMessages)
    .set(
      error === null
        ? {
            forwardStatus: 'sent',
            forwardAttempts: sql`${contactMessages.forwardAttempts} + 1`,
            forwardedAt: new Date(),
            lastError: null,
            nextAttemptAt: null,
          }
        : {
            forwardStatus: job.lastAttempt ? 'failed' : 'pending',
            forwardAttempts: sql`${contactMessages.forwardAttempts} + 1`,
            lastError: error,
            nextAttemptAt: null,
          },
    )
    .where(eq(contactMessages.id, row.id))
  if (error !== null) throw new Error(`Contact message ${messageId} not forwarded: ${error}`)
  return 'sent'
}

/** Waits `ms`, or less if `signal` aborts (then it throws, as the attempt is abandoned). */
function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Posts one message; returns null on success, else why it failed (kept on the row). */
async function postToFormService(
  forwarding: ContactForwarding,
  row: typeof contactMessages.$inferSelect,
  signal: AbortSignal,
): Promise<string | null> {
  try {
    const response = await (forwarding.fetch ?? fetch)(forwarding.endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        // The same on every attempt at this message: a receiver that honours it (a relay of ours,
        // most payment-style APIs) keeps one. Web3Forms ignores it: a repeat is possible (ADR 009).
        'Idempotency-Key': `contact-message-${row.id}`,
      },
      body: JSON.stringify({
        access_key: forwarding.accessKey,
        botcheck: false,
        name: row.name,
        email: row.email,
        subject: `[${row.subject}] ${row.name}`,
        message: row.message,
      }),
      signal,
    })
    const body = (await response.json().catch(() => null)) as { success?: boolean; message?: string } | null
    if (response.ok && body?.success !== false) return null
    return `HTTP ${response.status}${body?.message ? `: ${body.message}` : ''}`.slice(0, 500)
  } catch (error) {
    return String((error as Error).message ?? error).slice(0, 500)
  }
}
