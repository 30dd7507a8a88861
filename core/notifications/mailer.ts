import { desc } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { Database } from '#db/client.ts'
import { outboxEmails } from '#db/schema/index.ts'

export type OutgoingEmail = { to: string; subject: string; text: string; html: string }

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
      })
    },
  }
}

/** Development: mail is stored and shown at /dev/outbox instead of being sent. */
export function createOutboxMailer({ db }: { db: Database }): Mailer {
  return {
    kind: 'outbox',
    async send(email) {
      await db.insert(outboxEmails).values(email)
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
