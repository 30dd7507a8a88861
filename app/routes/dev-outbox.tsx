import { useTranslation } from 'react-i18next'
import { data, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { areas } from '#app/locales/areas.ts'
import type { Route } from './+types/dev-outbox.ts'

// Only outside production: in production this address does not exist.

export const handle = areas('admin')

export async function loader({ context }: Route.LoaderArgs) {
  const { isProduction, outbox } = context.get(requestContext)
  if (isProduction) throw data(null, { status: 404 })
  const [emails, texts] = await Promise.all([outbox.list(), outbox.listSms()])
  return {
    emails: emails.map((email) => ({ ...email, createdAt: email.createdAt.toISOString() })),
    texts: texts.map((sms) => ({ ...sms, createdAt: sms.createdAt.toISOString() })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

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

export default function DevOutboxRoute() {
  const { t } = useTranslation()
  const { emails, texts } = useLoaderData<typeof loader>()
  return (
    <section className="mx-auto max-w-4xl px-4 py-12">
      <PageMeta title={t('outbox.title')} description={t('outbox.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('outbox.title')}</h1>
      <p className="mt-2 text-slate-700">{t('outbox.lead')}</p>
      {emails.length === 0 ? <p className="mt-6 text-slate-700">{t('outbox.empty')}</p> : null}
      <ol className="mt-6 space-y-4">
        {emails.map((email) => (
          <li key={email.id} className="rounded-lg border border-slate-200 p-4">
            <h2 className="font-semibold text-slate-900">{email.subject}</h2>
            <p className="text-sm text-slate-600">
              {t('outbox.to', { to: email.to })} · <time dateTime={email.createdAt}>{email.createdAt}</time>
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
      <h2 className="mt-10 text-2xl font-bold text-slate-900">{t('outbox.smsHeading')}</h2>
      {texts.length === 0 ? <p className="mt-4 text-slate-700">{t('outbox.smsEmpty')}</p> : null}
      <ol className="mt-4 space-y-4">
        {texts.map((sms) => (
          <li key={sms.id} className="rounded-lg border border-slate-200 p-4">
            <p className="text-sm text-slate-600">
              {t('outbox.to', { to: sms.to })} · <time dateTime={sms.createdAt}>{sms.createdAt}</time>
            </p>
            <p className="mt-2 text-slate-800">{sms.text}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}
