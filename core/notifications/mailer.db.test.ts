import { afterAll, beforeAll, expect, test } from 'vitest'
import { type SmtpSink, startSmtpSink } from '#tests/support/smtp-sink.ts'
import { createSmtpMailer } from './mailer.ts'

// The SMTP mailer against a real SMTP server on loopback (the sink stands in for the provider).
let sink: SmtpSink

beforeAll(async () => {
  sink = await startSmtpSink()
})

afterAll(async () => {
  await sink?.close()
})

test('an e-mail with a key is sent as one Message-ID, the same each time it is sent again (ADR 009)', async () => {
  const mailer = createSmtpMailer({ url: sink.url, from: 'Tienda <no-reply@shop.example>' })
  const email = { to: 'ana@example.com', subject: 'Hola', text: 'Hola', html: '<p>Hola</p>' }
  await mailer.send({ ...email, key: 'notification.email:3f2a-9b' })
  await mailer.send({ ...email, key: 'notification.email:3f2a-9b' })
  await mailer.send(email)
  const first = await sink.next('ana@example.com')
  const second = await sink.next('ana@example.com', { skip: 1 })
  const third = await sink.next('ana@example.com', { skip: 2 })
  expect(first.mail.messageId).toBe('<notification.email.3f2a-9b@shop.example>')
  expect(second.mail.messageId).toBe(first.mail.messageId)
  expect(third.mail.messageId).not.toBe(first.mail.messageId)
})

test('createSmtpMailer delivers subject, sender, recipient, plain text and HTML, accents intact', async () => {
  const mailer = createSmtpMailer({ url: sink.url, from: 'Tienda Ñandú <no-reply@example.com>' })
  expect(mailer.kind).toBe('smtp')
  await mailer.send({
    to: 'lucia@example.com',
    subject: 'Confirma tu correo · Tienda Ñandú',
    text: 'Hola Lucía,\n\nConfirma tu correo: https://shop.example/verify?token=abc&x=1',
    html: '<p>Hola Lucía,</p><p><a href="https://shop.example/verify?token=abc&amp;x=1">Confirmar</a></p>',
  })

  const { envelope, mail } = await sink.next('lucia@example.com')
  expect(envelope).toEqual({ from: 'no-reply@example.com', to: ['lucia@example.com'] })
  expect(mail.subject).toBe('Confirma tu correo · Tienda Ñandú')
  expect(mail.from?.value).toEqual([{ address: 'no-reply@example.com', name: 'Tienda Ñandú' }])
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : null).toEqual([
    { address: 'lucia@example.com', name: '' },
  ])
  // Both parts, as alternatives of one message.
  expect((mail.headers.get('content-type') as { value: string }).value).toBe('multipart/alternative')
  expect(mail.text?.trim()).toBe(
    'Hola Lucía,\n\nConfirma tu correo: https://shop.example/verify?token=abc&x=1',
  )
  expect(mail.html).toBe(
    '<p>Hola Lucía,</p><p><a href="https://shop.example/verify?token=abc&amp;x=1">Confirmar</a></p>',
  )
})

test('nodemailer options in the SMTP_URL query are honoured: requireTLS refuses a server without STARTTLS', async () => {
  const before = sink.received.length
  const mailer = createSmtpMailer({ url: `${sink.url}?requireTLS=true`, from: 'no-reply@example.com' })
  await expect(
    mailer.send({ to: 'nobody@example.com', subject: 'x', text: 'x', html: '<p>x</p>' }),
  ).rejects.toThrow(/STARTTLS/)
  expect(sink.received.length).toBe(before)
})
