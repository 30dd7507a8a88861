import type { CustomerNotificationType, NotificationParams } from '#core/notifications/notify.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { TemplateComponent } from './client.ts'

/**
 * The updates a customer may have on WhatsApp, and the notification types each covers. Only
 * order updates (utility templates): nothing of marketing goes there (docs/decisions/049).
 */
export const WHATSAPP_CATEGORIES = {
  quote: ['quote_ready', 'quote_revised'],
  payment: ['payment_received', 'shipment_paid'],
  arrival: ['items_arrived'],
  shipped: ['shipment_shipped'],
  refund: ['refund_sent', 'refund_confirmed'],
  message: ['new_message'],
} as const satisfies Record<string, readonly CustomerNotificationType[]>
export type WhatsAppCategory = keyof typeof WHATSAPP_CATEGORIES
export const WHATSAPP_CATEGORY_NAMES = Object.keys(WHATSAPP_CATEGORIES) as [
  WhatsAppCategory,
  ...WhatsAppCategory[],
]

export function categoryOf(type: CustomerNotificationType): WhatsAppCategory | null {
  for (const name of WHATSAPP_CATEGORY_NAMES) {
    if ((WHATSAPP_CATEGORIES[name] as readonly string[]).includes(type)) return name
  }
  return null
}

type Param = { from: string; as: 'text' | 'yen' | 'count' }

/**
 * The approved templates, one per notification type, in `es` and `en` under the same name: their
 * body parameters in order ({{1}}, {{2}}…) from the notification's params, and one URL button
 * whose suffix is the page's path. Registered at Meta with these names (the ADR has their texts).
 */
export const WHATSAPP_TEMPLATES = {
  quote_ready: {
    name: 'order_quote_ready',
    body: [
      { from: 'number', as: 'text' },
      { from: 'totalJpy', as: 'yen' },
    ],
  },
  quote_revised: { name: 'order_quote_revised', body: [{ from: 'number', as: 'text' }] },
  payment_received: {
    name: 'order_payment_received',
    body: [
      { from: 'number', as: 'text' },
      { from: 'amountJpy', as: 'yen' },
    ],
  },
  shipment_paid: {
    name: 'order_shipment_paid',
    body: [
      { from: 'number', as: 'text' },
      { from: 'amountJpy', as: 'yen' },
    ],
  },
  items_arrived: {
    name: 'order_items_arrived',
    body: [
      { from: 'number', as: 'text' },
      { from: 'count', as: 'count' },
    ],
  },
  shipment_shipped: {
    name: 'order_shipment_shipped',
    body: [
      { from: 'number', as: 'text' },
      { from: 'carrier', as: 'text' },
      { from: 'tracking', as: 'text' },
    ],
  },
  refund_sent: {
    name: 'order_refund_sent',
    body: [
      { from: 'number', as: 'text' },
      { from: 'amountJpy', as: 'yen' },
    ],
  },
  refund_confirmed: {
    name: 'order_refund_confirmed',
    body: [
      { from: 'number', as: 'text' },
      { from: 'amountJpy', as: 'yen' },
    ],
  },
  new_message: { name: 'order_new_message', body: [{ from: 'number', as: 'text' }] },
} as const satisfies Record<string, { name: string; body: readonly Param[] }>

/** The authentication template that carries the opt-in code (body {{1}} and its copy button). */
export const WHATSAPP_CODE_TEMPLATE = 'account_verification_code'

/** Meta's language codes of our templates: plain `es` (neutral Latin-American) and `en`. */
export const WHATSAPP_LANGUAGE: Record<Language, string> = { es: 'es', en: 'en' }

/** Meta refuses a parameter longer than this, and an empty one. */
const MAX_PARAM = 1000

/**
 * The template of a notification: name, language and components; null when the type has no
 * template or its params lack one the template needs (the e-mail goes instead).
 */
export function buildNotificationTemplate(
  type: CustomerNotificationType,
  params: NotificationParams,
  language: Language,
  link: string,
): { name: string; language: string; components: TemplateComponent[] } | null {
  if (!(type in WHATSAPP_TEMPLATES)) return null
  const template = WHATSAPP_TEMPLATES[type as keyof typeof WHATSAPP_TEMPLATES]
  const texts: string[] = []
  for (const param of template.body as readonly Param[]) {
    const text = formatParam(params[param.from], param.as, language)
    if (text === null) return null
    texts.push(text)
  }
  return {
    name: template.name,
    language: WHATSAPP_LANGUAGE[language],
    components: [
      { type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) },
      // The button's URL at Meta is the site followed by {{1}}: the path, without its first slash.
      {
        type: 'button',
        sub_type: 'url',
        index: '0',
        parameters: [{ type: 'text', text: link.replace(/^\/+/, '') }],
      },
    ],
  }
}

/** The code template: the code in the body and in its copy-code button, as Meta asks. */
export function buildCodeTemplate(code: string, language: Language) {
  return {
    name: WHATSAPP_CODE_TEMPLATE,
    language: WHATSAPP_LANGUAGE[language],
    components: [
      { type: 'body', parameters: [{ type: 'text', text: code }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
    ] satisfies TemplateComponent[],
  }
}

function formatParam(value: string | number | undefined, as: Param['as'], language: Language): string | null {
  if (value === undefined || value === null) return null
  let text: string
  if (as === 'yen') {
    if (typeof value !== 'number' || !Number.isInteger(value)) return null
    text = new Intl.NumberFormat(language === 'es' ? 'es-MX' : 'en-US', {
      style: 'currency',
      currency: 'JPY',
      currencyDisplay: 'code',
    }).format(value)
  } else if (as === 'count') {
    if (typeof value !== 'number') return null
    text = new Intl.NumberFormat(language).format(value)
  } else {
    text = String(value)
  }
  // Meta refuses new lines, tabs and more than four spaces in a row in a parameter.
  text = text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {4,}/g, '   ')
    .trim()
  return text === '' ? null : text.slice(0, MAX_PARAM)
}
