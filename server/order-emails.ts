import { BUSINESS_TIME_ZONE } from '#core/jobs/job-queue.ts'
import { formatMoney, intlLocale } from '#core/money/money.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import type {
  CustomerNotificationType,
  NotificationParams,
  StaffNotificationType,
} from '#core/notifications/notify.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { composeEmail, type EmailSender, serverTranslator } from './account-emails.ts'

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/**
 * The texts of a notification's params as the reader writes them: a param whose name ends in
 * `Jpy` is an amount of yen (`JPY 12,345`, `12.345 JPY`… per language), one whose name ends in
 * `Date` an ISO timestamp written as a date and time in Japan time (the texts say so), the rest
 * as given. Params are stored once and read in any language (the in-app list follows the page).
 */
export function notificationValues(params: NotificationParams, language: Language): Record<string, string> {
  const dateTime = new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: BUSINESS_TIME_ZONE,
  })
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (name.endsWith('Jpy') && typeof value === 'number')
        return [name, formatMoney(value, 'JPY', language)]
      if (name.endsWith('Date') && typeof value === 'string' && ISO_TIMESTAMP.test(value)) {
        return [name, dateTime.format(new Date(value))]
      }
      return [name, String(value)]
    }),
  )
}

/**
 * The e-mail of one notification: its title as the subject, its body, a button to the page it is
 * about. The same locale keys as the in-app list (`customerNotifications.<type>` or
 * `staffNotifications.<type>`), in the recipient's language.
 */
export function composeNotificationEmail(input: {
  audience: 'customer' | 'staff'
  type: CustomerNotificationType | StaffNotificationType
  params: NotificationParams
  to: string
  name: string
  language: Language
  url: string
  shop: EmailSender
}): OutgoingEmail {
  const t = serverTranslator(input.language)
  const values = notificationValues(input.params, input.language)
  // Keys built at run time: i18next's typed keys cannot follow them, and a missing one would
  // show the key itself (the locale test checks every type has its texts).
  const text = (key: string) => String(t(key as never, values as never))
  const base = input.audience === 'customer' ? 'customerNotifications' : 'staffNotifications'
  return composeEmail({
    to: input.to,
    language: input.language,
    shop: input.shop,
    subject: text(`${base}.${input.type}.title`),
    greetingName: input.name,
    body: text(`${base}.${input.type}.body`),
    button: { label: text(`${base}.button`), url: input.url },
  })
}
