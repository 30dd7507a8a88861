import { japanDateTime } from '#app/lib/dates.ts'
import type { ConversationSide, UnreadDigest } from '#core/conversations/conversation-service.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { composeEmail, type EmailSender, serverTranslator } from './account-emails.ts'

/**
 * The one e-mail of a burst of messages in a conversation (docs/decisions/048), in the
 * recipient's language: who wrote, when (Japan time), what, and how many files; a button to the
 * conversation. The texts are under `conversationEmail` in the e-mails locale files.
 */
export function composeConversationEmail(input: {
  /** Who is written to: the customer, or a staff member. */
  side: ConversationSide
  digest: UnreadDigest
  to: string
  name: string
  language: Language
  url: string
  shop: EmailSender
}): OutgoingEmail {
  const t = serverTranslator(input.language)
  const { digest } = input
  const when = japanDateTime(input.language)
  const kind = digest.kind
  const count = digest.messages.length
  const subject =
    input.side === 'customer'
      ? t(`conversationEmail.subjectCustomer.${kind}`, { number: digest.number, count })
      : t(`conversationEmail.subjectStaff.${kind}`, {
          number: digest.number,
          customer: digest.customer.name,
          count,
        })
  const lines = digest.messages.flatMap((message) => [
    t('conversationEmail.from', {
      author:
        input.side === 'customer'
          ? t('conversationEmail.team')
          : (message.authorName ?? digest.customer.name),
      date: when(message.createdAt),
    }),
    ...(message.body ? [message.body] : []),
    ...(message.files > 0 ? [t('conversationEmail.files', { count: message.files })] : []),
    '',
  ])
  return composeEmail({
    to: input.to,
    language: input.language,
    shop: input.shop,
    subject,
    greetingName: input.name,
    body: [t('conversationEmail.lead', { count }), '', ...lines].join('\n').trimEnd(),
    button: { label: t('conversationEmail.button'), url: input.url },
  })
}
