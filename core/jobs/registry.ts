import { z } from 'zod'
import { STAFF_NOTIFICATION_TYPES } from '#core/notifications/notify.ts'
import { LANGUAGES } from '#core/preferences/preferences.ts'
import { defineJobs, type JobEnqueuer } from './job-queue.ts'

/**
 * Every background job of the app: its payload and its retry policy. Like app/routes.ts for
 * URLs, this is the one list; server/jobs.ts gives each its handler (TypeScript insists on one
 * per job). Payloads carry ids and what the handler cannot look up, never secrets it could.
 */

/** An e-mail to compose in the worker: which template, for whom, in which language. */
export const EmailJobSchema = z.object({
  to: z.email(),
  language: z.enum(LANGUAGES),
  template: z.enum(['verify-email', 'reset-password']),
  // The link is the e-mail's whole point, so it is in the payload (and kept one day at most).
  variables: z.object({ name: z.string().max(200), url: z.url() }),
})
export type EmailJob = z.output<typeof EmailJobSchema>

export const JOBS = defineJobs({
  /** Forwards a stored contact message to the external form service. */
  'contact.forward': {
    payload: z.object({ messageId: z.uuid() }),
    // 1, 2, 4 … minutes, then every 6 hours: about 1 day in all before the message is marked failed.
    retryLimit: 10,
    retryDelaySeconds: 60,
    retryDelayMaxSeconds: 6 * 3600,
    expireInSeconds: 60,
  },
  /** Sends one e-mail through the configured mailer (SMTP or the development outbox). */
  'email.send': {
    payload: EmailJobSchema,
    // 30 s doubling up to 30 min: about 1.5 hours, the life of a password-reset link.
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryDelayMaxSeconds: 30 * 60,
    expireInSeconds: 60,
    keepFinishedSeconds: 24 * 3600,
  },
  /** E-mails one in-app notification to its customer, in their language (core/notifications/notify.ts). */
  'notification.email': {
    payload: z.object({ notificationId: z.uuid() }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryDelayMaxSeconds: 30 * 60,
    expireInSeconds: 60,
    keepFinishedSeconds: 24 * 3600,
  },
  /** E-mails staff (admins and moderators) about something waiting for them. */
  'notification.staff-email': {
    payload: z.object({
      type: z.enum(STAFF_NOTIFICATION_TYPES),
      params: z.record(z.string(), z.union([z.string(), z.number()])),
      link: z.string().regex(/^\/[^/]/),
    }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryDelayMaxSeconds: 30 * 60,
    expireInSeconds: 120,
    keepFinishedSeconds: 24 * 3600,
  },
  /**
   * Asks the payment providers about checkouts left pending (a webhook that never came, a
   * customer who closed the tab after approving) and settles them; closes abandoned ones
   * (core/payments/payment-service.ts `reconcilePendingPayments`). Every 15 minutes; a provider
   * that does not answer is asked again at the next run, so a failed run is not retried.
   */
  'payments.reconcile': {
    payload: z.object({}),
    retryLimit: 0,
    retryDelaySeconds: 60,
    retryDelayMaxSeconds: 60,
    expireInSeconds: 600,
    schedule: { cron: '*/15 * * * *', payload: {} },
  },
  /**
   * Asks the provider again about one payment a minute after its customer came back from the
   * provider's page, if it is still pending (core/payments/payment-service.ts
   * `confirmPendingPayment`): a crash between the provider taking the money and our record is
   * settled within a minute or two, not at the next reconciliation. A provider that does not
   * answer: 1, 2, 4… minutes, up to 10.
   */
  'payments.confirm': {
    payload: z.object({ paymentId: z.uuid() }),
    retryLimit: 6,
    retryDelaySeconds: 60,
    retryDelayMaxSeconds: 600,
    expireInSeconds: 180,
  },
  /**
   * Expires quotes unpaid after the days to pay and reminds a day before (core/orders/quote-expiry.ts),
   * every hour on the hour, Japan time. Idempotent: a second run finds nothing left to do.
   */
  'orders.expire-quotes': {
    payload: z.object({}),
    retryLimit: 3,
    retryDelaySeconds: 120,
    retryDelayMaxSeconds: 1800,
    expireInSeconds: 600,
    schedule: { cron: '0 * * * *', payload: {} },
  },
  /**
   * Reminds customers before their items' free storage ends, and when it has
   * (core/warehouse/storage-reminders.ts), daily at 09:00 Japan time. Idempotent.
   */
  'storage.remind': {
    payload: z.object({}),
    retryLimit: 3,
    retryDelaySeconds: 300,
    retryDelayMaxSeconds: 3600,
    expireInSeconds: 600,
    schedule: { cron: '0 9 * * *', payload: {} },
  },
  /** Forgets old job-effect keys (core/jobs/job-effects.ts), daily at 04:30 Japan time. */
  'jobs.prune-effects': {
    payload: z.object({}),
    retryLimit: 3,
    retryDelaySeconds: 300,
    retryDelayMaxSeconds: 3600,
    expireInSeconds: 300,
    schedule: { cron: '30 4 * * *', payload: {} },
  },
  /**
   * One e-mail for the messages of a conversation one side has not read (docs/decisions/048):
   * enqueued a few minutes after a message, once per conversation and side in a window, so a
   * burst of messages is one e-mail; nothing when the side read them in the app meanwhile.
   */
  'conversation.email': {
    payload: z.object({ conversationId: z.uuid(), side: z.enum(['customer', 'staff']) }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryDelayMaxSeconds: 30 * 60,
    expireInSeconds: 120,
    keepFinishedSeconds: 24 * 3600,
  },
  /**
   * Sends one customer update as a WhatsApp template (core/whatsapp/dispatch.ts). Rate limits and
   * Meta's 5xx: 30 s doubling up to 30 min, about 1.5 hours; then, or on a permanent refusal, the
   * e-mail goes instead.
   */
  'whatsapp.send': {
    payload: z.object({ messageId: z.uuid() }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryDelayMaxSeconds: 30 * 60,
    expireInSeconds: 60,
    keepFinishedSeconds: 24 * 3600,
  },
})

export type AppJobs = typeof JOBS
/** What services take to add jobs: `jobs.enqueue(tx, 'email.send', { … })`. */
export type AppJobEnqueuer = JobEnqueuer<AppJobs>
