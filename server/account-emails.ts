import i18next, { type TFunction } from 'i18next'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import type { EmailJob } from '#core/jobs/registry.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, parseLanguage } from '#core/preferences/preferences.ts'

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

/** The account e-mails (verification, password reset), in the recipient's language. */
export function composeAccountEmail(email: EmailJob & { siteName: string }): OutgoingEmail {
  const t = translator(email.language)
  const key = TEMPLATE_KEYS[email.template]
  const greeting = t('emails.greeting', { name: email.variables.name })
  const body = t(`emails.${key}.body`)
  const button = t(`emails.${key}.button`)
  const ignore = t('emails.ignore')
  const url = email.variables.url
  const text = [greeting, '', body, '', `${button}: ${url}`, '', ignore, '', email.siteName].join('\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#b91c1c;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="color:#475569;font-size:14px">${escapeHtml(ignore)}</p>
<p style="color:#475569;font-size:14px">${escapeHtml(email.siteName)}</p>
</body></html>`
  return { to: email.to, subject: `${t(`emails.${key}.subject`)} · ${email.siteName}`, text, html }
}

/** The text message carrying a sign-in code, in the recipient's language. */
export function composeCodeSms(input: { code: string; language: string; minutes: number; siteName: string }) {
  return translator(parseLanguage(input.language) ?? DEFAULT_LANGUAGE)('mfa.sms', {
    site: input.siteName,
    code: input.code,
    minutes: input.minutes,
  })
}
