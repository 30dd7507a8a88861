import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { JobContext } from '#core/jobs/job-queue.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import type { CustomerNotificationType } from '#core/notifications/notify.ts'
import { DEFAULT_LANGUAGE, parseLanguage } from '#core/preferences/preferences.ts'
import type { Database, Executor } from '#db/client.ts'
import {
  notifications,
  users,
  whatsappContacts,
  whatsappMessages,
  whatsappWebhookEvents,
} from '#db/schema/index.ts'
import { type WhatsAppClient, WhatsAppSendError } from './client.ts'
import { buildNotificationTemplate, categoryOf, type WhatsAppCategory } from './templates.ts'

/**
 * Called by `notifyCustomer` in its transaction: when the customer has WhatsApp on for this
 * update's category, a message row and its `whatsapp.send` job, and true (the e-mail is not
 * sent: it goes only if WhatsApp fails). False otherwise: the e-mail goes, as always. Nobody can
 * be active without WhatsApp configured, so with nothing configured no job is ever added.
 */
export async function queueWhatsApp(
  tx: Executor,
  jobs: AppJobEnqueuer,
  input: { userId: string; type: CustomerNotificationType; notificationId: string },
): Promise<boolean> {
  const category = categoryOf(input.type)
  if (!category) return false
  const [contact] = await tx
    .select({ phone: whatsappContacts.phone })
    .from(whatsappContacts)
    .where(
      and(
        eq(whatsappContacts.userId, input.userId),
        eq(whatsappContacts.status, 'active'),
        sql`${category} = any(${whatsappContacts.categories})`,
      ),
    )
  if (!contact) return false
  const [message] = await tx
    .insert(whatsappMessages)
    .values({
      userId: input.userId,
      notificationId: input.notificationId,
      phone: contact.phone,
      template: input.type,
      language: '',
    })
    .returning({ id: whatsappMessages.id })
  if (!message) throw new Error('Unable to store a WhatsApp message: no row returned')
  await jobs.enqueue(tx, 'whatsapp.send', { messageId: message.id })
  return true
}

/**
 * Whether the customer has this category on WhatsApp now (an active number with it ticked). The
 * conversation's grouped e-mail (docs/decisions/048) is not sent to a customer who gets each new
 * message on WhatsApp; a message WhatsApp cannot deliver is e-mailed on its own.
 */
export async function getsOnWhatsApp(
  db: Executor,
  userId: string,
  category: WhatsAppCategory,
): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(whatsappContacts)
    .where(
      and(
        eq(whatsappContacts.userId, userId),
        eq(whatsappContacts.status, 'active'),
        sql`${category} = any(${whatsappContacts.categories})`,
      ),
    )
  return row !== undefined
}

export type WhatsAppDeps = {
  db: Database
  jobs: AppJobEnqueuer
  /** Null when the environment configures no WhatsApp (the e-mail goes instead). */
  client: WhatsAppClient | null
}

export type SendOutcome = 'sent' | 'skipped' | 'failed' | 'done'

/**
 * The `whatsapp.send` job: sends one queued message, unless the customer stopped (or changed
 * number, or unticked the update) since: then the e-mail goes. 429/5xx/rate limits throw for the
 * queue to retry; on the last try, and on a permanent refusal, the message is failed and the
 * e-mail goes instead.
 */
export async function sendWhatsAppMessage(
  deps: WhatsAppDeps,
  messageId: string,
  job: Pick<JobContext, 'lastAttempt'>,
): Promise<SendOutcome> {
  const { db } = deps
  const [row] = await db
    .select({
      status: whatsappMessages.status,
      phone: whatsappMessages.phone,
      type: notifications.type,
      params: notifications.params,
      link: notifications.link,
      language: users.language,
      contactStatus: whatsappContacts.status,
      contactPhone: whatsappContacts.phone,
      categories: whatsappContacts.categories,
    })
    .from(whatsappMessages)
    .innerJoin(notifications, eq(notifications.id, whatsappMessages.notificationId))
    .innerJoin(users, eq(users.id, whatsappMessages.userId))
    .leftJoin(whatsappContacts, eq(whatsappContacts.userId, whatsappMessages.userId))
    .where(eq(whatsappMessages.id, messageId))
  // Gone with its account or notification, or handled by an earlier run of this job.
  if (row?.status !== 'queued') return 'done'
  const type = row.type as CustomerNotificationType
  const category = categoryOf(type)
  const stillWanted =
    row.contactStatus === 'active' &&
    row.contactPhone === row.phone &&
    category !== null &&
    (row.categories ?? []).includes(category)
  if (!deps.client || !stillWanted) {
    await finish(deps, messageId, { status: 'skipped', errorCode: null })
    return 'skipped'
  }
  const language = parseLanguage(row.language) ?? DEFAULT_LANGUAGE
  const template = buildNotificationTemplate(
    type,
    row.params,
    language,
    row.link ?? '/user-dashboard/notifications',
  )
  if (!template) {
    await finish(deps, messageId, { status: 'failed', errorCode: null })
    return 'failed'
  }
  try {
    const { wamid } = await deps.client.sendTemplate({ to: row.phone, ...template })
    await db
      .update(whatsappMessages)
      .set({
        status: sql`case when ${whatsappMessages.status} = 'queued' then 'sent' else ${whatsappMessages.status} end`,
        wamid,
        template: template.name,
        language: template.language,
        sentAt: sql`coalesce(${whatsappMessages.sentAt}, now())`,
      })
      .where(eq(whatsappMessages.id, messageId))
    return 'sent'
  } catch (error) {
    if (!(error instanceof WhatsAppSendError)) throw error
    if (error.kind === 'retry' && !job.lastAttempt) throw error
    await finish(deps, messageId, { status: 'failed', errorCode: error.code, template })
    return 'failed'
  }
}

/** A message that will not go by WhatsApp: its status, and the e-mail in its place (once). */
async function finish(
  deps: WhatsAppDeps,
  messageId: string,
  outcome: {
    status: 'skipped' | 'failed'
    errorCode: number | null
    template?: { name: string; language: string }
  },
) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(whatsappMessages)
      .set({
        status: outcome.status,
        errorCode: outcome.errorCode,
        ...(outcome.status === 'failed' ? { failedAt: sql`now()` } : {}),
        ...(outcome.template ? { template: outcome.template.name, language: outcome.template.language } : {}),
      })
      .where(and(eq(whatsappMessages.id, messageId), eq(whatsappMessages.status, 'queued')))
    await fallBackToEmail(tx, deps.jobs, messageId)
  })
}

/** Sends the notification's e-mail instead of its WhatsApp message, at most once per message. */
async function fallBackToEmail(tx: Executor, jobs: AppJobEnqueuer, messageId: string) {
  const [fallen] = await tx
    .update(whatsappMessages)
    .set({ fallbackAt: sql`now()` })
    .where(and(eq(whatsappMessages.id, messageId), isNull(whatsappMessages.fallbackAt)))
    .returning({ notificationId: whatsappMessages.notificationId })
  if (fallen?.notificationId) {
    await jobs.enqueue(tx, 'notification.email', { notificationId: fallen.notificationId })
  }
}

/** What the webhook's `statuses` entries say of a message we sent. */
export type StatusEvent = {
  wamid: string
  status: 'sent' | 'delivered' | 'read' | 'failed'
  at: Date
  errorCode: number | null
}

/** An inbound message: who (E.164) and its text (a text, or a quick-reply button's). */
export type InboundEvent = { id: string; from: string; text: string | null }

/** Words that stop WhatsApp updates, in either language, upper case and without accents. */
export const STOP_WORDS = new Set(['STOP', 'PARAR', 'BAJA', 'ALTO', 'CANCELAR', 'UNSUBSCRIBE', 'DETENER'])

export function isStopWord(text: string | null): boolean {
  if (!text) return false
  const word = text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^\p{L}]/gu, '')
    .toUpperCase()
  return STOP_WORDS.has(word)
}

/**
 * One status receipt, once (its event id is the wamid and the status): timestamps kept, and the
 * status only ever goes forward (sent → delivered → read), so late or repeated deliveries are
 * harmless. A failure of a message not yet delivered fails it and sends the e-mail instead.
 */
export async function recordStatus(deps: Pick<WhatsAppDeps, 'db' | 'jobs'>, event: StatusEvent) {
  return deps.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(whatsappWebhookEvents)
      .values({ id: `status:${event.wamid}:${event.status}` })
      .onConflictDoNothing()
      .returning({ id: whatsappWebhookEvents.id })
    if (fresh.length === 0) return 'replayed' as const
    const at = event.at
    const status = whatsappMessages.status
    if (event.status === 'failed') {
      const [failed] = await tx
        .update(whatsappMessages)
        .set({ status: 'failed', failedAt: at, errorCode: event.errorCode })
        .where(and(eq(whatsappMessages.wamid, event.wamid), sql`${status} in ('queued', 'sent')`))
        .returning({ id: whatsappMessages.id })
      if (failed) await fallBackToEmail(tx, deps.jobs, failed.id)
      return failed ? ('failed' as const) : ('ignored' as const)
    }
    const forward = {
      sent: ['queued'],
      delivered: ['queued', 'sent'],
      read: ['queued', 'sent', 'delivered'],
    }[event.status]
    const updated = await tx
      .update(whatsappMessages)
      .set({
        status: sql`case when ${status} = any(${sql.param(forward)}::text[]) then ${event.status} else ${status} end`,
        sentAt: sql`coalesce(${whatsappMessages.sentAt}, ${at})`,
        ...(event.status !== 'sent'
          ? { deliveredAt: sql`coalesce(${whatsappMessages.deliveredAt}, ${at})` }
          : {}),
        ...(event.status === 'read' ? { readAt: sql`coalesce(${whatsappMessages.readAt}, ${at})` } : {}),
      })
      .where(and(eq(whatsappMessages.wamid, event.wamid), sql`${status} <> 'failed'`))
      .returning({ id: whatsappMessages.id })
    return updated.length > 0 ? ('recorded' as const) : ('ignored' as const)
  })
}

/** One inbound message, once: STOP (or PARAR, BAJA…) stops every account on that number at once. */
export async function recordInbound(deps: Pick<WhatsAppDeps, 'db'>, event: InboundEvent) {
  return deps.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(whatsappWebhookEvents)
      .values({ id: `message:${event.id}` })
      .onConflictDoNothing()
      .returning({ id: whatsappWebhookEvents.id })
    if (fresh.length === 0) return 'replayed' as const
    if (!isStopWord(event.text)) return 'ignored' as const
    await tx
      .update(whatsappContacts)
      .set({ status: 'stopped', stoppedAt: sql`now()`, codeHash: null, updatedAt: sql`now()` })
      .where(
        and(
          inArray(whatsappContacts.phone, sameNumberForms(event.from)),
          sql`${whatsappContacts.status} <> 'stopped'`,
        ),
      )
    return 'stopped' as const
  })
}

/**
 * Every way one mobile number is written, as customers type it and as Meta's `wa_id` gives it
 * back: Mexico's mobiles with or without the old 1 (+52 1 55… / +52 55…), Argentina's with or
 * without the 9 (+54 9 11… / +54 11…), Brazil's with or without the ninth digit (+55 11 9… /
 * +55 11 …). A STOP from any of them stops the number however it was typed.
 */
export function sameNumberForms(phone: string): string[] {
  const forms = new Set([phone])
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^\+521(\d{10})$/, (m) => `+52${m[1]}`],
    [/^\+52(\d{10})$/, (m) => `+521${m[1]}`],
    [/^\+549(\d{10})$/, (m) => `+54${m[1]}`],
    [/^\+54(\d{10})$/, (m) => `+549${m[1]}`],
    [/^\+55(\d{2})9(\d{8})$/, (m) => `+55${m[1]}${m[2]}`],
    [/^\+55(\d{2})([2-9]\d{7})$/, (m) => `+55${m[1]}9${m[2]}`],
  ]
  for (const [pattern, other] of rules) {
    const match = pattern.exec(phone)
    if (match) forms.add(other(match))
  }
  return [...forms]
}
