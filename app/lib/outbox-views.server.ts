import { japanDateTime } from '#app/lib/dates.ts'
import type { listOutbox } from '#core/notifications/mailer.ts'
import type { listSmsOutbox } from '#core/notifications/sms.ts'
import type { Language } from '#core/preferences/preferences.ts'

/**
 * The outbox as both its pages send it (the development outbox, /dev/outbox, and the admin
 * panel's, /admin-dashboard/outbox): which kinds of message it keeps, and the messages, each
 * with `createdAt` as ISO text and `when` written out in the page's language (Japan time).
 */
export function outboxForPage(
  keeps: { email: boolean; sms: boolean },
  emails: Awaited<ReturnType<typeof listOutbox>>,
  texts: Awaited<ReturnType<typeof listSmsOutbox>>,
  language: Language,
) {
  const when = japanDateTime(language)
  return {
    keeps,
    emails: emails.map((email) => ({
      ...email,
      createdAt: email.createdAt.toISOString(),
      when: when(email.createdAt),
    })),
    texts: texts.map((sms) => ({
      ...sms,
      createdAt: sms.createdAt.toISOString(),
      when: when(sms.createdAt),
    })),
  }
}
