import { countryName } from '#core/customers/countries.ts'
import { formatMoney } from '#core/money/money.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import { notificationValues } from '#core/notifications/notification-values.ts'
import {
  type CustomerNotificationType,
  type NotificationParams,
  notificationParts,
  type StaffNotificationType,
} from '#core/notifications/notify.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { composeEmail, type EmailSender, serverTranslator } from './account-emails.ts'

export { notificationValues }

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
  // A number `count` stays a number, so a text can have its plural forms ("1 link", "3 links").
  const count = typeof input.params.count === 'number' ? { count: input.params.count } : {}
  const values = { ...notificationValues(input.params, input.language), ...count }
  // Keys built at run time: i18next's typed keys cannot follow them, and a missing one would
  // show the key itself (the locale test checks every type has its texts).
  const text = (key: string) => {
    // A notification may name a variant of its text (`variant: 'noPhoto'` → `body_noPhoto`).
    const variant = typeof input.params.variant === 'string' ? `${key}_${input.params.variant}` : null
    const written = variant ? String(t(variant as never, values as never)) : null
    // i18next answers a missing key with the key itself: then the text without the variant.
    return written !== null && written !== variant ? written : String(t(key as never, values as never))
  }
  const base = input.audience === 'customer' ? 'customerNotifications' : 'staffNotifications'
  // i18next answers a missing key with the key itself.
  const has = (key: string) => text(key) !== key
  const body = [
    ...notificationParts(input.params, (part) => has(`${base}.${input.type}.${part}`))
      .filter((part) => part !== 'title')
      .map((part) => text(`${base}.${input.type}.${part}`)),
    ...importEstimateLine(input.params, input.language, t),
  ].join('\n')
  return composeEmail({
    to: input.to,
    language: input.language,
    shop: input.shop,
    subject: text(`${base}.${input.type}.title`),
    greetingName: input.name,
    body,
    button: { label: text(`${base}.button`), url: input.url },
  })
}

/**
 * The line an e-mail that carries amounts adds when the parcel has an import estimate (issue 30):
 * what the destination will ask at the door, who collects it, and that we do not charge it. None
 * without an estimate (no rule for the country, or a formal entry).
 */
export function importEstimateLine(
  params: NotificationParams,
  language: Language,
  t: ReturnType<typeof serverTranslator>,
): string[] {
  const { importJpy, importCountry, importCollector } = params
  if (typeof importJpy !== 'number' || typeof importCountry !== 'string') return []
  const collector = importCollector === 'customs' ? 'customs' : 'carrier'
  return [
    t('emails.importEstimate', {
      country: countryName(importCountry, language),
      amount: formatMoney(importJpy, 'JPY', language),
      collector: t(`emails.importCollector.${collector}`),
    }),
  ]
}
