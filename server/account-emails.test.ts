import { expect, test } from 'vitest'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { composeAccountEmail, composeCodeSms } from './account-emails.ts'

const job = {
  to: 'ana@example.com',
  template: 'reset-password' as const,
  variables: { name: 'Ana <b>&</b> "Pérez"', url: 'https://tienda.example/api/auth/reset?token=a&b=c' },
  siteName: 'Tienda',
}

test('an account e-mail interpolates the name and link in its language; the HTML part escapes them', () => {
  for (const [language, messages] of [
    ['es', es],
    ['en', en],
  ] as const) {
    const email = composeAccountEmail({ ...job, language })
    const greeting = messages.emails.greeting.replace('{{name}}', job.variables.name)
    expect(email.subject).toBe(`${messages.emails.reset.subject} · Tienda`)
    expect(email.text.split('\n')[0]).toBe(greeting)
    expect(email.text).toContain(`${messages.emails.reset.button}: ${job.variables.url}`)
    expect(email.text).not.toContain('{{')
    expect(email.html).toContain('Ana &lt;b&gt;&amp;&lt;/b&gt; &quot;Pérez&quot;')
    expect(email.html).toContain('href="https://tienda.example/api/auth/reset?token=a&amp;b=c"')
    expect(email.html).not.toContain('<b>')
  }
})

test('the sign-in code text message is interpolated in the language asked, Spanish when unknown', () => {
  expect(composeCodeSms({ code: '123456', language: 'en', minutes: 10, siteName: 'Tienda' })).toBe(
    'Tienda: your verification code is 123456. It expires in 10 minutes. Never share it.',
  )
  expect(composeCodeSms({ code: '654321', language: 'xx', minutes: 5, siteName: 'Tienda' })).toContain(
    'Tienda: tu código de verificación es 654321. Caduca en 5 minutos.',
  )
})
