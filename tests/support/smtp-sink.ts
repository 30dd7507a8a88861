import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export type ReceivedEmail = {
  /** The SMTP envelope: MAIL FROM and every RCPT TO, as the client sent them. */
  envelope: { from: string; to: string[] }
  /** The message as a mail client would read it (headers decoded, parts split, bodies decoded). */
  mail: ParsedMail
  /** `performance.now()` when the message had arrived; its final reply goes `replyDelayMs` later. */
  receivedAt: number
}

/**
 * A real SMTP server on 127.0.0.1 standing in for the mail provider: plaintext (no STARTTLS, no
 * AUTH), any free port; it accepts every message and keeps it, parsed. `replyDelayMs` holds each
 * message's final reply the way a remote relay takes its time, so a test can tell whether the app
 * waits for delivery.
 */
export async function startSmtpSink({ replyDelayMs = 0 }: { replyDelayMs?: number } = {}) {
  const received: ReceivedEmail[] = []
  const waiting = new Set<() => void>()

  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            mail,
            receivedAt: performance.now(),
          })
          for (const wake of waiting) wake()
          setTimeout(() => callback(), replyDelayMs)
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0

  /** The first message (in arrival order) to `to` that arrives after `skip` earlier ones to it. */
  async function next(to: string, { skip = 0, timeoutMs = 10_000 } = {}): Promise<ReceivedEmail> {
    const find = () => received.filter((email) => email.envelope.to.includes(to))[skip]
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = find()
      if (found) return found
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          waiting.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, left)
        waiting.add(wake)
      })
    }
  }

  return {
    port,
    /** What SMTP_URL should be to send here. */
    url: `smtp://127.0.0.1:${port}`,
    received,
    next,
    /** The first link in the newest message to `to`, once at least `count` have arrived for it. */
    async link(to: string, count = 1): Promise<string> {
      await next(to, { skip: count - 1 })
      const newest = received.filter((email) => email.envelope.to.includes(to)).at(-1)
      return /https?:\/\/[^\s"<>]+/.exec(newest?.mail.text ?? '')?.[0] ?? ''
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>
