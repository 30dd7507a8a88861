import { desc } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { Database } from '#db/client.ts'
import { outboxEmails } from '#db/schema/index.ts'

export type OutgoingEmail = {
  to: string
  subject: string
  text: string
  html: string
  /**
   * What makes this e-mail one e-mail (a job's effect key): sent as its Message-ID, so a copy sent
   * again after a crash between the SMTP server's answer and our record reads as the same message
   * to receivers that fold duplicates (ADR 009).
   */
  key?: string
}

/** A Message-ID from an e-mail's key and the sender's domain: `<key@domain>`, the key made safe. */
export function messageIdFor(key: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'storefront.invalid'
  return `<${key.replace(/[^A-Za-z0-9.-]/g, '.')}@${domain}>`
}

export type Mailer = {
  send(email: OutgoingEmail): Promise<void>
  /** Where mail goes, for the start-up log. */
  readonly kind: 'smtp' | 'outbox'
}

/** Real delivery over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export function createSmtpMailer({ url, from }: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(url)
  return {
    kind: 'smtp',
    async send(email) {
      await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        ...(email.key ? { messageId: messageIdFor(email.key, from) } : {}),
      })
    },
  }
}

/** Development: mail is stored and shown at /dev/outbox instead of being sent. */
export function createOutboxMailer({ db }: { db: Database }): Mailer {
  return {
    kind: 'outbox',
    async send({ to, subject, text, html }) {
      await db.insert(outboxEmails).values({ to, subject, text, html })
    },
  }
}

export async function listOutbox(db: Database, limit = 20) {
  return db
    .select({
      id: outboxEmails.id,
      to: outboxEmails.to,
      subject: outboxEmails.subject,
      text: outboxEmails.text,
      createdAt: outboxEmails.createdAt,
    })
    .from(outboxEmails)
    .orderBy(desc(outboxEmails.createdAt))
    .limit(limit)
}
