import { useTranslation } from 'react-i18next'
import { useLoaderData } from 'react-router'
import { OutboxMessages, outboxWaiting } from '#app/components/outbox-messages.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { outboxForPage } from '#app/lib/outbox-views.server.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/outbox.ts'

// The outbox in the admin panel, production included: with no mail server (SMTP_URL) or SMS
// provider configured, as on a fresh `npm start`, e-mails and text messages wait in the outbox
// table instead of going out, and this page is how the shop follows what each customer would
// receive. Admins only (the admin layout refuses anyone else): the messages hold sign-in links
// and codes. Once a provider is configured its messages go out and nothing of that kind is shown.
// docs/decisions/023-admin-settings-rates-audit.md, "Outbox".

export const OUTBOX_PAGE_SIZE = 50

export async function loader({ context }: Route.LoaderArgs) {
  getUser(context)
  const { outbox, language } = context.get(requestContext)
  const [emails, texts] = await Promise.all([
    outbox.keeps.email ? outbox.list(OUTBOX_PAGE_SIZE) : [],
    outbox.keeps.sms ? outbox.listSms(OUTBOX_PAGE_SIZE) : [],
  ])
  return outboxForPage(outbox.keeps, emails, texts, language)
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function AdminOutboxRoute() {
  const { t } = useTranslation()
  const { keeps, emails, texts } = useLoaderData<typeof loader>()
  const waiting = outboxWaiting(keeps)
  return (
    <section>
      <PageMeta title={t('adminOutbox.title')} description={t('adminOutbox.privacy')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('adminOutbox.title')}</h1>
      {keeps.email || keeps.sms ? (
        <>
          <p className="mt-2 max-w-3xl text-slate-700">{t(`adminOutbox.lead.${waiting ?? 'both'}`)}</p>
          <p className="mt-2 max-w-3xl text-slate-700">{t('adminOutbox.privacy')}</p>
          <p className="mt-2 max-w-3xl text-slate-700">{t(`adminOutbox.howToSend.${waiting ?? 'both'}`)}</p>
          {keeps.email ? null : <p className="mt-4 text-slate-700">{t('adminOutbox.emailSent')}</p>}
          {keeps.sms ? null : <p className="mt-4 text-slate-700">{t('adminOutbox.smsSent')}</p>}
          <OutboxMessages emails={emails} texts={texts} showEmails={keeps.email} showTexts={keeps.sms} />
        </>
      ) : (
        <p className="mt-2 max-w-3xl text-slate-700">{t('adminOutbox.allSent')}</p>
      )}
    </section>
  )
}
