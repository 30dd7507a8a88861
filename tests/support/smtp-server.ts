import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { to: string[]; raw: string }

/** Quoted-printable soft line breaks and escapes, undone (enough to read links in a message). */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}

/**
 * A local SMTP server standing in for the real one (`SMTP_URL`): plain text on loopback, no
 * authentication, records what it receives. `replyDelayMs` holds each message's final reply the
 * way a remote relay takes its time, so a test can tell whether the app waits for delivery.
 */
export async function startSmtpServer({ replyDelayMs = 0 } = {}) {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        })
        setTimeout(() => callback(), replyDelayMs)
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The first link in the newest message to `to`, once at least `count` have arrived for it. */
    async link(to: string, count = 1): Promise<string> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const mails = received.filter((mail) => mail.to.includes(to))
        if (mails.length >= count) return /https?:\/\/[^\s"<>]+/.exec(mails.at(-1)?.raw ?? '')?.[0] ?? ''
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`no e-mail to ${to}`)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
