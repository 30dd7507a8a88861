import { useTranslation } from 'react-i18next'

/** `createdAt` as ISO text; `when` written out for the reader (Japan time, app/lib/dates.ts). */
export type OutboxEmailView = {
  id: string
  to: string
  subject: string
  text: string
  createdAt: string
  when: string
}
export type OutboxSmsView = { id: string; to: string; text: string; createdAt: string; when: string }

// Splits text around links; IS_URL checks a piece (no /g state).
const URL_PATTERN = /(https?:\/\/\S+)/g
const IS_URL = /^https?:\/\//

/** Each piece with where it starts in the text: a stable key. */
function withOffsets(parts: string[]) {
  let offset = 0
  return parts.map((part) => {
    const entry = { part, offset }
    offset += part.length
    return entry
  })
}

/**
 * The e-mails and text messages kept in the outbox, newest first, their links live: the
 * development outbox (/dev/outbox) and the admin panel's (/admin-dashboard/outbox) show them alike.
 */
export function OutboxMessages({
  emails,
  texts,
  showEmails = true,
  showTexts = true,
}: {
  emails: OutboxEmailView[]
  texts: OutboxSmsView[]
  showEmails?: boolean
  showTexts?: boolean
}) {
  const { t } = useTranslation()
  return (
    <>
      {showEmails ? (
        <>
          {emails.length === 0 ? <p className="mt-6 text-slate-700">{t('outbox.empty')}</p> : null}
          <ol className="mt-6 space-y-4">
            {emails.map((email) => (
              <li key={email.id} className="rounded-lg border border-slate-200 p-4">
                <h2 className="font-semibold break-words text-slate-900">{email.subject}</h2>
                <p className="text-sm text-slate-600">
                  {t('outbox.to', { to: email.to })} · <time dateTime={email.createdAt}>{email.when}</time>
                </p>
                <p className="mt-3 whitespace-pre-wrap break-all text-sm text-slate-800">
                  {withOffsets(email.text.split(URL_PATTERN)).map(({ part, offset }) =>
                    IS_URL.test(part) ? (
                      <a key={offset} href={part} className="text-red-800 underline">
                        {part}
                      </a>
                    ) : (
                      <span key={offset}>{part}</span>
                    ),
                  )}
                </p>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {showTexts ? (
        <>
          <h2 className="mt-10 text-2xl font-bold text-slate-900">{t('outbox.smsHeading')}</h2>
          {texts.length === 0 ? <p className="mt-4 text-slate-700">{t('outbox.smsEmpty')}</p> : null}
          <ol className="mt-4 space-y-4">
            {texts.map((sms) => (
              <li key={sms.id} className="rounded-lg border border-slate-200 p-4">
                <p className="text-sm text-slate-600">
                  {t('outbox.to', { to: sms.to })} · <time dateTime={sms.createdAt}>{sms.when}</time>
                </p>
                <p className="mt-2 text-slate-800">{sms.text}</p>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  )
}

/**
 * What waits in the outbox, so its page names only the provider that is missing: with SMTP_URL
 * set it never says that no mail server is set up (ADR 038). Null: nothing waits.
 */
export function outboxWaiting(keeps: { email: boolean; sms: boolean }): 'both' | 'email' | 'sms' | null {
  if (keeps.email && keeps.sms) return 'both'
  if (keeps.email) return 'email'
  if (keeps.sms) return 'sms'
  return null
}
