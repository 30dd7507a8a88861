import { useTranslation } from 'react-i18next'
import { data, useLoaderData } from 'react-router'
import { OutboxMessages } from '#app/components/outbox-messages.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { outboxForPage } from '#app/lib/outbox-views.server.ts'
import { areas } from '#app/locales/areas.ts'
import type { Route } from './+types/dev-outbox.ts'

// Only outside production: in production this address does not exist (admins read the outbox
// in the admin panel instead, /admin-dashboard/outbox, while no provider is configured).

export const handle = areas('admin')

export async function loader({ context }: Route.LoaderArgs) {
  const { isProduction, outbox, language } = context.get(requestContext)
  if (isProduction) throw data(null, { status: 404 })
  const [emails, texts] = await Promise.all([outbox.list(), outbox.listSms()])
  return outboxForPage(outbox.keeps, emails, texts, language)
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

export default function DevOutboxRoute() {
  const { t } = useTranslation()
  const { keeps, emails, texts } = useLoaderData<typeof loader>()
  return (
    <section className="mx-auto max-w-4xl px-4 py-12">
      <PageMeta title={t('outbox.title')} description={t('outbox.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('outbox.title')}</h1>
      <p className="mt-2 text-slate-700">{t('outbox.lead')}</p>
      {/* Said only when true: with SMTP_URL set, mail goes out (ADR 038). */}
      {keeps.email ? null : <p className="mt-2 text-slate-700">{t('outbox.emailConfigured')}</p>}
      {keeps.sms ? null : <p className="mt-2 text-slate-700">{t('outbox.smsConfigured')}</p>}
      <OutboxMessages emails={emails} texts={texts} />
    </section>
  )
}
