import { afterAll, beforeAll, expect, test } from 'vitest'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { DEFAULT_SETTINGS } from '#core/settings/settings-schema.ts'
import { waitForJobsIdle } from '#tests/support/jobs.ts'
import { type ReceivedEmail, type SmtpSink, startSmtpSink } from '#tests/support/smtp-sink.ts'
import { type ServerProcess, startAppOnTestDatabase } from './server-process.ts'

// Account e-mails from the production server over SMTP to a real SMTP server on loopback, in the
// recipient's language; the links in them work. Nothing is kept in the development outbox.
// Per-address auth limits apply (5 sign-ups, 3 reset requests a minute): this file stays under them.
const MAIL_FROM = 'Tienda de prueba <tienda@example.com>'
const LOCALES = { es, en }

let server: ServerProcess
let sink: SmtpSink
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']

beforeAll(async () => {
  sink = await startSmtpSink()
  ;({ server, database } = await startAppOnTestDatabase({ SMTP_URL: sink.url, MAIL_FROM }))
})

afterAll(async () => {
  await sink?.close()
})

/** A form POST as the browser sends it, in the visitor's language. */
function postForm(pathname: string, fields: Record<string, string>, lang: 'es' | 'en') {
  return fetch(`${server.url}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: server.url,
      cookie: `lang=${lang}`,
    },
    body: new URLSearchParams(fields),
  })
}

const query = async (sql: string, params: unknown[] = []) => (await database.pool.query(sql, params)).rows
const outboxCount = async () => (await query('SELECT count(*)::int AS n FROM outbox_emails'))[0].n as number
const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

/** Checks the message is one of ours, in `lang`, with both parts carrying the same link; returns the link. */
function readAccountEmail(
  received: ReceivedEmail,
  lang: 'es' | 'en',
  kind: 'verify' | 'reset',
  name: string,
): string {
  const { mail } = received
  const t = LOCALES[lang].emails
  const other = LOCALES[lang === 'es' ? 'en' : 'es'].emails
  expect(mail.from?.value).toEqual([{ address: 'tienda@example.com', name: 'Tienda de prueba' }])
  // Branded with the shop (the seeded company settings): subject, header, footer, both parts.
  const shop = DEFAULT_SETTINGS.company
  expect(mail.subject).toBe(`${t[kind].subject} · ${shop.name}`)
  const text = mail.text ?? ''
  const html = typeof mail.html === 'string' ? mail.html : ''
  const footer = t.footer.replace('{{shop}}', shop.name).replace('{{address}}', shop.address[lang])
  expect(text.split('\n')[0]).toBe(shop.name)
  expect(text).toContain(`--\n${footer}\n${t.contact.replace('{{email}}', shop.email)}`)
  expect(html).toContain(`>${escapeHtml(shop.name)}</td>`)
  expect(html).toContain(escapeHtml(footer))
  expect(html).toContain(`href="mailto:${escapeHtml(shop.email)}"`)
  expect(html).toContain(`<html lang="${lang}">`)
  for (const line of [t.greeting.replace('{{name}}', name), t[kind].body, t.ignore]) {
    expect(text).toContain(line)
    expect(html).toContain(escapeHtml(line))
  }
  expect(text).not.toContain(other[kind].body)
  const link = new RegExp(`${t[kind].button}: (\\S+)`).exec(text)?.[1] ?? ''
  expect(link.startsWith(`${server.url}/api/auth/`)).toBe(true)
  expect(html).toContain(`href="${escapeHtml(link)}"`)
  expect(html).toContain(`>${escapeHtml(t[kind].button)}</a>`)
  return link
}

const PEOPLE = {
  es: {
    name: 'Lucía Pérez',
    email: 'lucia@example.com',
    password: 'té verde con limón',
    next: 'otra clave más larga',
  },
  en: {
    name: 'Jane Doe',
    email: 'jane@example.com',
    password: 'tea with matcha 2026',
    next: 'a brand new password',
  },
} as const

for (const lang of ['es', 'en'] as const) {
  const person = PEOPLE[lang]

  test(`${lang}: sign-up through /auth mails the verification over SMTP in ${lang}, text and HTML, and its link verifies the account`, async () => {
    const response = await postForm(
      '/auth?mode=signup',
      {
        intent: 'signup',
        fullName: person.name,
        email: person.email,
        password: person.password,
        confirmPassword: person.password,
      },
      lang,
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/auth?mode=signup&sent=1')

    const received = await sink.next(person.email)
    expect(received.envelope).toEqual({ from: 'tienda@example.com', to: [person.email] })
    const link = readAccountEmail(received, lang, 'verify', person.name)
    // Sent by the email.send worker; its job carries what the e-mail shows, never the password.
    await waitForJobsIdle(database.pool, 'email.send')
    expect(
      await query(`SELECT state, data FROM pgboss.job WHERE name = 'email.send' AND data->>'to' = $1`, [
        person.email,
      ]),
    ).toEqual([
      {
        state: 'completed',
        data: {
          to: person.email,
          language: lang,
          template: 'verify-email',
          variables: { name: person.name, url: link },
        },
      },
    ])
    expect(
      await query('SELECT language, email_verified FROM users WHERE email = $1', [person.email]),
    ).toEqual([{ language: lang, email_verified: false }])

    const followed = await fetch(link, { redirect: 'manual' })
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe('/auth?verified=true')
    expect(await query('SELECT email_verified FROM users WHERE email = $1', [person.email])).toEqual([
      { email_verified: true },
    ])
    expect(await outboxCount()).toBe(0)
  })

  test(`${lang}: forgot-password mails the reset link in the account's language (${lang}); the reset form refuses a common password, then takes a new one`, async () => {
    // Asked from a page in the other language: the e-mail follows the account, not the page.
    const pageLang = lang === 'es' ? 'en' : 'es'
    const response = await postForm('/forgot-password', { email: person.email }, pageLang)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/forgot-password?sent=1')

    const received = await sink.next(person.email, { skip: 1 })
    const link = readAccountEmail(received, lang, 'reset', person.name)
    const opened = await fetch(link, { redirect: 'manual' })
    expect(opened.status).toBe(302)
    const resetPage = new URL(opened.headers.get('location') ?? '', server.url)
    expect(resetPage.pathname).toBe('/auth/reset-password')
    const token = resetPage.searchParams.get('token') ?? ''
    expect(token).not.toBe('')

    const target = `/auth/reset-password?token=${encodeURIComponent(token)}`
    const common = await postForm(
      target,
      { token, password: 'Password123', confirmPassword: 'Password123' },
      lang,
    )
    expect(common.status).toBe(400)
    expect(await common.text()).toContain(LOCALES[lang].auth.errors.passwordTooCommon)

    const accepted = await postForm(
      target,
      { token, password: person.next, confirmPassword: person.next },
      lang,
    )
    expect(accepted.status).toBe(302)
    expect(accepted.headers.get('location')).toBe('/auth')
    expect(accepted.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^flash=passwordUpdated;/))
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: person.email, password: person.next }),
    })
    expect(signIn.status).toBe(200)
    expect(await outboxCount()).toBe(0)
  })
}

test('the /auth sign-up form refuses "password123" with 400 and the translated message in both languages, writing and sending nothing', async () => {
  const usersBefore = await query('SELECT count(*)::int AS n FROM users')
  const mailsBefore = sink.received.length
  for (const lang of ['es', 'en'] as const) {
    const response = await postForm(
      '/auth?mode=signup',
      {
        intent: 'signup',
        fullName: 'Common Password',
        email: `common-${lang}@example.com`,
        password: 'password123',
        confirmPassword: 'password123',
      },
      lang,
    )
    expect(response.status).toBe(400)
    const html = await response.text()
    // The message is the password field's error, and the password is not sent back.
    const message = LOCALES[lang].auth.errors.passwordTooCommon
    expect(html).toMatch(new RegExp(`<p id="[^"]*password-error"[^>]*>${message}</p>`))
    expect(html).not.toContain('password123')
  }
  expect(await query('SELECT count(*)::int AS n FROM users')).toEqual(usersBefore)
  expect(await query(`SELECT count(*)::int AS n FROM users WHERE email LIKE 'common-%'`)).toEqual([{ n: 0 }])
  expect(sink.received.length).toBe(mailsBefore)
  expect(await outboxCount()).toBe(0)
})
