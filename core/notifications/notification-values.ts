import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { NotificationParams } from './notify.ts'

/**
 * The texts of a notification's params as the reader writes them: a param whose name ends in
 * `Jpy` is an amount of yen (`¥12,345`, or `12.345 ¥`… per language), the rest as given. The
 * same for the e-mail (server/order-emails.ts) and the in-app list (the notifications tab).
 */
export function notificationValues(params: NotificationParams, language: Language): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      name.endsWith('Jpy') && typeof value === 'number' ? formatMoney(value, 'JPY', language) : String(value),
    ]),
  )
}
