import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import { parseLanguage } from '#core/preferences/preferences.ts'

const MESSAGES = { en, es }

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

/** The account e-mails (verification, password reset), in the recipient's language. */
export function composeAccountEmail(input: {
  kind: 'verify-email' | 'reset-password'
  to: string
  name: string
  url: string
  language: string
  siteName: string
}): OutgoingEmail {
  const t = MESSAGES[parseLanguage(input.language) ?? 'es'].emails
  const content = input.kind === 'verify-email' ? t.verify : t.reset
  const greeting = t.greeting.replace('{{name}}', input.name)
  const text = [
    greeting,
    '',
    content.body,
    '',
    `${content.button}: ${input.url}`,
    '',
    t.ignore,
    '',
    input.siteName,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(content.body)}</p>
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;background:#b91c1c;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(content.button)}</a></p>
<p style="color:#475569;font-size:14px">${escapeHtml(t.ignore)}</p>
<p style="color:#475569;font-size:14px">${escapeHtml(input.siteName)}</p>
</body></html>`
  return { to: input.to, subject: `${content.subject} · ${input.siteName}`, text, html }
}

/** The text message carrying a sign-in code, in the recipient's language. */
export function composeCodeSms(input: { code: string; language: string; minutes: number; siteName: string }) {
  const t = MESSAGES[parseLanguage(input.language) ?? 'es'].mfa.sms
  return t
    .replace('{{site}}', input.siteName)
    .replace('{{code}}', input.code)
    .replace('{{minutes}}', String(input.minutes))
}
