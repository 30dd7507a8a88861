import { expect, test } from 'vitest'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { composeAccountEmail, composeCodeSms } from './account-emails.ts'

const job = {
  to: 'ana@example.com',
  template: 'reset-password' as const,
  variables: { name: 'Ana <b>&</b> "Pérez"', url: 'https://tienda.example/api/auth/reset?token=a&b=c' },
  shop: {
    name: 'Tienda <i>Ñandú</i> & Co',
    address: { es: 'Osaka "Namba" <1-2-3>, Japón', en: 'Osaka "Namba" <1-2-3>, Japan' },
    email: 'hola$&@tienda.example',
  },
}

test('an account e-mail interpolates the name and link in its language; the HTML part escapes them', () => {
  for (const [language, messages] of [
    ['es', es],
    ['en', en],
  ] as const) {
    const email = composeAccountEmail({ ...job, language })
    const greeting = messages.emails.greeting.replace('{{name}}', job.variables.name)
    expect(email.subject).toBe(`${messages.emails.reset.subject} · ${job.shop.name}`)
    expect(email.text.split('\n')[0]).toBe(job.shop.name)
    expect(email.text.split('\n')[2]).toBe(greeting)
    expect(email.text).toContain(`${messages.emails.reset.button}: ${job.variables.url}`)
    expect(email.text).not.toContain('{{')
    // The shop's address in the reader's language (ADR 038).
    expect(email.text).toContain(job.shop.address[language])
    expect(email.text).not.toContain(job.shop.address[language === 'es' ? 'en' : 'es'])
    expect(email.html).toContain('Ana &lt;b&gt;&amp;&lt;/b&gt; &quot;Pérez&quot;')
    expect(email.html).toContain('href="https://tienda.example/api/auth/reset?token=a&amp;b=c"')
    expect(email.html).not.toContain('<b>')
    expect(email.html).not.toContain('{{')
  }
})

test('an account e-mail is branded: the shop in the subject and header, its address and e-mail in the footer, both parts, escaped', () => {
  for (const [language, messages] of [
    ['es', es],
    ['en', en],
  ] as const) {
    const email = composeAccountEmail({ ...job, language })
    const footer = messages.emails.footer
      .replace('{{shop}}', job.shop.name)
      .replace('{{address}}', job.shop.address[language])
    const contact = messages.emails.contact.replace('{{email}}', () => job.shop.email)
    // The plain-text part: the shop first, the footer after a signature line.
    expect(email.text.split('\n').slice(-3)).toEqual(['--', footer, contact])

    expect(email.html).toMatch(/^<!doctype html>\n<html lang="(es|en)">/)
    expect(email.html).toContain(`<html lang="${language}">`)
    // Header, title and footer: the shop's values escaped, never as markup.
    expect(email.html).toContain('>Tienda &lt;i&gt;Ñandú&lt;/i&gt; &amp; Co</td>')
    expect(email.html).toContain('<title>')
    expect(email.html).toContain('Osaka &quot;Namba&quot; &lt;1-2-3&gt;')
    expect(email.html).not.toContain('<i>')
    expect(email.html).not.toContain('<1-2-3>')
    expect(email.html).toContain(
      '<a href="mailto:hola$&amp;@tienda.example" style="color:#991b1b">hola$&amp;@tienda.example</a>',
    )
    // The button and, for programs that show no buttons, the same link written out.
    expect(email.html).toContain(`>${messages.emails.reset.button}</a>`)
    expect(
      email.html.match(/href="https:\/\/tienda\.example\/api\/auth\/reset\?token=a&amp;b=c"/g),
    ).toHaveLength(2)
    expect(email.html).toContain(messages.emails.linkFallback)
  }
})

test('the sign-in code text message is interpolated in the language asked, Spanish when unknown', () => {
  expect(composeCodeSms({ code: '123456', language: 'en', minutes: 10, siteName: 'Tienda' })).toBe(
    'Tienda: your verification code is 123456. It expires in 10 minutes. Never share it.',
  )
  expect(composeCodeSms({ code: '654321', language: 'xx', minutes: 5, siteName: 'Tienda' })).toContain(
    'Tienda: tu código de verificación es 654321. Vence en 5 minutos. No lo compartas con nadie.',
  )
})
