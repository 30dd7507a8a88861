import i18next, { type TFunction } from 'i18next'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import type { EmailJob } from '#core/jobs/registry.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, parseLanguage } from '#core/preferences/preferences.ts'
import { type Bilingual, inLanguage } from '#core/settings/bilingual.ts'

// One i18next instance for the server's own texts (e-mails, SMS), both languages loaded; values
// are interpolated as given and escaped below where the output is HTML.
const i18n = i18next.createInstance()
void i18n.init({
  resources: { en: { translation: en }, es: { translation: es } },
  supportedLngs: [...LANGUAGES],
  fallbackLng: false,
  interpolation: { escapeValue: false },
  initAsync: false,
})
const translator = (language: Language): TFunction => i18n.getFixedT(language)

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

const TEMPLATE_KEYS = { 'verify-email': 'verify', 'reset-password': 'reset' } as const

/** Who sends the e-mails: the company details from the settings (core/settings). */
/** The shop as e-mails name it: the address in both languages, written in the recipient's. */
export type EmailSender = { name: string; address: Bilingual; email: string }

/**
 * The account e-mails (verification, password reset), in the recipient's language, branded with
 * the shop (see `composeEmail`).
 */
export function composeAccountEmail(email: EmailJob & { shop: EmailSender }): OutgoingEmail {
  const t = translator(email.language)
  const key = TEMPLATE_KEYS[email.template]
  return composeEmail({
    to: email.to,
    language: email.language,
    shop: email.shop,
    subject: t(`emails.${key}.subject`),
    greetingName: email.variables.name,
    body: t(`emails.${key}.body`),
    button: { label: t(`emails.${key}.button`), url: email.variables.url },
    closing: t('emails.ignore'),
  })
}

/**
 * One e-mail of the shop, in the recipient's language: its name in the subject and the header,
 * a greeting, the body, one button with its link written out too, the shop's address and e-mail
 * in the footer. A plain text part and a simple HTML part (tables and inline styles, which e-mail
 * programs keep) say the same; every value in the HTML is escaped.
 */
export function composeEmail(parts: {
  to: string
  language: Language
  shop: EmailSender
  subject: string
  greetingName: string
  body: string
  button: { label: string; url: string }
  closing?: string
}): OutgoingEmail {
  const t = translator(parts.language)
  const { shop } = parts
  const subject = `${parts.subject} · ${shop.name}`
  const greeting = t('emails.greeting', { name: parts.greetingName })
  const { body } = parts
  const button = parts.button.label
  const fallback = t('emails.linkFallback')
  const footer = t('emails.footer', { shop: shop.name, address: inLanguage(shop.address, parts.language) })
  const contact = t('emails.contact', { email: shop.email })
  const url = parts.button.url
  const closing = parts.closing ?? ''
  const text = [
    shop.name,
    '',
    greeting,
    '',
    body,
    '',
    `${button}: ${url}`,
    '',
    ...(closing ? [closing, ''] : []),
    '--',
    footer,
    contact,
  ].join('\n')
  const e = escapeHtml
  // The shop's address as a mailto: link (a function, so a $ in it is no replacement pattern).
  const contactHtml = e(contact).replace(
    e(shop.email),
    () => `<a href="mailto:${e(shop.email)}" style="color:#991b1b">${e(shop.email)}</a>`,
  )
  const bodyHtml = body
    .split('\n')
    .map((paragraph) => `<p style="margin:0 0 16px">${e(paragraph)}</p>`)
    .join('')
  const html = `<!doctype html>
<html lang="${e(parts.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px">
<tr><td style="background:#991b1b;color:#ffffff;padding:16px 24px;font-size:20px;font-weight:bold;border-radius:8px 8px 0 0">${e(shop.name)}</td></tr>
<tr><td style="padding:24px;font-size:16px;line-height:1.5">
<p style="margin:0 0 16px">${e(greeting)}</p>
${bodyHtml}
<p style="margin:8px 0 24px"><a href="${e(url)}" style="display:inline-block;background:#b91c1c;color:#ffffff;padding:12px 20px;border-radius:6px;font-weight:bold;text-decoration:none">${e(button)}</a></p>
<p style="margin:0 0 8px;color:#475569;font-size:14px">${e(fallback)}</p>
<p style="margin:0 0 24px;font-size:14px;word-break:break-all"><a href="${e(url)}" style="color:#991b1b">${e(url)}</a></p>
${closing ? `<p style="margin:0;color:#475569;font-size:14px">${e(closing)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;color:#475569;font-size:13px;line-height:1.5">
<p style="margin:0">${e(footer)}</p>
<p style="margin:0">${contactHtml}</p>
</td></tr>
</table>
</td></tr></table>
</body></html>`
  return { to: parts.to, subject, text, html }
}

/** A translator in one language, for the server's texts (e-mails of orders too). */
export function serverTranslator(language: Language): TFunction {
  return translator(language)
}

/** The text message carrying a sign-in code, in the recipient's language. */
export function composeCodeSms(input: { code: string; language: string; minutes: number; siteName: string }) {
  return translator(parseLanguage(input.language) ?? DEFAULT_LANGUAGE)('mfa.sms', {
    site: input.siteName,
    code: input.code,
    minutes: input.minutes,
  })
}
