import { and, eq, inArray, sql } from 'drizzle-orm'
import type { ContactForwarding } from '#core/contact/contact-service.ts'
import { forwardContactMessage } from '#core/contact/contact-service.ts'
import { markEmailed, unreadForEmail } from '#core/conversations/conversation-service.ts'
import { pruneJobEffects, runEffectOnce } from '#core/jobs/job-effects.ts'
import type { JobHandlers } from '#core/jobs/job-queue.ts'
import type { AppJobEnqueuer, AppJobs } from '#core/jobs/registry.ts'
import type { Mailer } from '#core/notifications/mailer.ts'
import { type CustomerNotificationType, staffRolesFor } from '#core/notifications/notify.ts'
import { expireQuotes } from '#core/orders/quote-expiry.ts'
import { confirmPendingPayment, reconcilePendingPayments } from '#core/payments/payment-service.ts'
import type { PaymentProvider } from '#core/payments/provider.ts'
import { confirmPendingRefunds } from '#core/payments/refund-confirmation.ts'
import { DEFAULT_LANGUAGE, parseLanguage } from '#core/preferences/preferences.ts'
import type { SettingsService } from '#core/settings/settings-service.ts'
import { sendStorageReminders } from '#core/warehouse/storage-reminders.ts'
import type { WhatsAppClient } from '#core/whatsapp/client.ts'
import { getsOnWhatsApp, sendWhatsAppMessage } from '#core/whatsapp/dispatch.ts'
import type { Database } from '#db/client.ts'
import { notifications, users } from '#db/schema/index.ts'
import { composeAccountEmail } from './account-emails.ts'
import { composeConversationEmail } from './conversation-emails.ts'
import { composeNotificationEmail } from './order-emails.ts'

type JobHandlerDeps = {
  db: Database
  mailer: Mailer
  contactForwarding: ContactForwarding
  settings: Pick<SettingsService, 'get'>
  /** The site's address, for the links in e-mails (APP_URL). */
  appUrl: string
  /**
   * The queue these handlers run in, for jobs that enqueue others in their transaction (a
   * notification's e-mail); a function because the queue is built from these handlers.
   */
  jobs: () => AppJobEnqueuer
  /** The payment providers the environment configures, for the reconciliation job. */
  payments?: readonly PaymentProvider[]
  /** Where the reconciliation reports what it did. */
  log?: (report: Record<string, number>) => void
  /** WhatsApp Cloud API when configured (core/whatsapp/); none: queued messages go by e-mail. */
  whatsapp?: WhatsAppClient | null
}

type EmailJob = 'email.send' | 'notification.email' | 'notification.staff-email' | 'conversation.email'
type PaymentJob = 'payments.confirm' | 'payments.reconcile'

/** The shop's name, address and e-mail, as e-mails sign with them. */
async function shopOf(deps: JobHandlerDeps) {
  const { name, address, email } = (await deps.settings.get()).company
  return { name, address, email }
}

/** The jobs that send e-mails: an account e-mail, a customer's notification, the staff's. */
function emailHandlers(deps: JobHandlerDeps): Pick<JobHandlers<AppJobs>, EmailJob> {
  const { db } = deps
  const absolute = (path: string) => new URL(path, deps.appUrl).toString()
  return {
    'email.send': async (email, job) => {
      const { name, address, email: companyEmail } = (await deps.settings.get()).company
      const key = `email.send:${job.id}`
      await runEffectOnce(db, key, () =>
        deps.mailer.send({
          ...composeAccountEmail({ ...email, shop: { name, address, email: companyEmail } }),
          key,
        }),
      )
    },
    'notification.email': async ({ notificationId }, job) => {
      const [row] = await db
        .select({
          type: notifications.type,
          params: notifications.params,
          link: notifications.link,
          email: users.email,
          name: users.name,
          language: users.language,
        })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(eq(notifications.id, notificationId))
      // The account was deleted meanwhile: nobody to write to.
      if (!row) return
      const email = composeNotificationEmail({
        audience: 'customer',
        type: row.type as CustomerNotificationType,
        params: row.params,
        to: row.email,
        name: row.name,
        language: parseLanguage(row.language) ?? DEFAULT_LANGUAGE,
        url: absolute(row.link ?? '/user-dashboard/notifications'),
        shop: await shopOf(deps),
      })
      const key = `notification.email:${job.id}`
      await runEffectOnce(db, key, () => deps.mailer.send({ ...email, key }))
    },
    'notification.staff-email': async ({ type, params, link }, job) => {
      const staff = await db
        .select({ email: users.email, name: users.name, language: users.language })
        .from(users)
        // The same people as the in-app rows (core/notifications/notify.ts): the staff who may act.
        .where(and(inArray(users.role, staffRolesFor(type)), sql`coalesce(${users.banned}, false) = false`))
      const sender = await shopOf(deps)
      for (const member of staff) {
        const email = composeNotificationEmail({
          audience: 'staff',
          type,
          params,
          to: member.email,
          name: member.name,
          language: parseLanguage(member.language) ?? DEFAULT_LANGUAGE,
          url: absolute(link),
          shop: sender,
        })
        // One key per recipient: a retry after a failure half-way sends only the rest.
        const key = `notification.staff-email:${job.id}:${member.email}`
        await runEffectOnce(db, key, () => deps.mailer.send({ ...email, key }))
      }
    },
    // One e-mail for a burst of messages, unless read in the app meanwhile (docs/decisions/048).
    'conversation.email': async ({ conversationId, side }, job) => {
      const digest = await unreadForEmail(db, conversationId, side)
      if (!digest) return
      // A customer who gets new messages on WhatsApp had each one there (docs/decisions/049).
      if (side === 'customer' && deps.whatsapp && (await getsOnWhatsApp(db, digest.customer.id, 'message'))) {
        await markEmailed(db, conversationId, side, digest.upTo)
        return
      }
      const path = digest.kind === 'request' ? 'requests' : 'shipments'
      const shop = await shopOf(deps)
      const recipients =
        side === 'customer'
          ? [digest.customer]
          : await db
              .select({ email: users.email, name: users.name, language: users.language })
              .from(users)
              .where(
                and(
                  inArray(users.role, staffRolesFor('customer_message')),
                  sql`coalesce(${users.banned}, false) = false`,
                ),
              )
      for (const recipient of recipients) {
        const email = composeConversationEmail({
          side,
          digest,
          to: recipient.email,
          name: recipient.name,
          language: parseLanguage(recipient.language) ?? DEFAULT_LANGUAGE,
          url: absolute(
            `/${side === 'customer' ? 'user' : 'admin'}-dashboard/${path}/${digest.orderId}#conversation`,
          ),
          shop,
        })
        const key = `conversation.email:${job.id}:${recipient.email}`
        await runEffectOnce(db, key, () => deps.mailer.send({ ...email, key }))
      }
      await markEmailed(db, conversationId, side, digest.upTo)
    },
  }
}

/** The payment jobs: confirming one payment, and the reconciliation of payments and refunds. */
function paymentHandlers(deps: JobHandlerDeps): Pick<JobHandlers<AppJobs>, PaymentJob> {
  const paymentSystem = () => ({
    db: deps.db,
    jobs: deps.jobs(),
    payments: deps.payments ?? [],
    settings: deps.settings,
    appUrl: deps.appUrl.replace(/\/+$/, ''),
  })
  return {
    'payments.confirm': async ({ paymentId }) => {
      if (!deps.payments?.length) return
      const result = await confirmPendingPayment(paymentSystem(), paymentId)
      if (result !== 'unchanged' && result !== 'pending') deps.log?.({ [`confirm.${result}`]: 1 })
    },
    'payments.reconcile': async () => {
      if (!deps.payments?.length) return
      const report = await reconcilePendingPayments(paymentSystem())
      if (Object.values(report).some((count) => count > 0)) deps.log?.(report)
      // Refunds the provider was still processing: confirmed to the customer, or owed again.
      const refunds = await confirmPendingRefunds(paymentSystem())
      if (Object.values(refunds).some((count) => count > 0)) {
        deps.log?.(Object.fromEntries(Object.entries(refunds).map(([key, n]) => [`refunds.${key}`, n])))
      }
    },
  }
}

/**
 * What each job in core/jobs/registry.ts does. Built by server/main.ts, which runs the queue in
 * every process. Handlers may run more than once for one job (at-least-once delivery), so each
 * is idempotent: the contact message's own status, or a job-effect key.
 */
export function createJobHandlers(deps: JobHandlerDeps): JobHandlers<AppJobs> {
  const { db } = deps
  return {
    'contact.forward': async ({ messageId }, job) => {
      await forwardContactMessage({ db, forwarding: deps.contactForwarding }, messageId, job)
    },
    ...emailHandlers(deps),
    'orders.expire-quotes': async () => {
      await expireQuotes({ db, jobs: deps.jobs() }, new Date())
    },
    'storage.remind': async () => {
      await sendStorageReminders({ db, jobs: deps.jobs(), settings: deps.settings }, new Date())
    },
    'jobs.prune-effects': async () => {
      await pruneJobEffects(db)
    },
    ...paymentHandlers(deps),
    'whatsapp.send': async ({ messageId }, job) => {
      await sendWhatsAppMessage({ db, jobs: deps.jobs(), client: deps.whatsapp ?? null }, messageId, job)
    },
  }
}
