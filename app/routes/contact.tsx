import { useTranslation } from 'react-i18next'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { useRootData } from '#app/lib/root-data.ts'

export default function ContactRoute() {
  const { t } = useTranslation()
  const data = useRootData()
  const channels = data
    ? [
        {
          label: t('contact.email'),
          href: `mailto:${data.settings.company.email}`,
          text: data.settings.company.email,
          external: false,
        },
        {
          label: t('contact.instagram'),
          href: data.settings.messaging.instagram,
          text: data.settings.messaging.instagram,
          external: true,
        },
        {
          label: t('contact.facebook'),
          href: data.settings.messaging.facebook,
          text: data.settings.messaging.facebook,
          external: true,
        },
        {
          label: t('contact.whatsapp'),
          href: data.settings.messaging.whatsapp,
          text: data.settings.messaging.whatsapp,
          external: true,
        },
      ]
    : []
  return (
    <>
      <PageMeta title={t('contact.title')} description={t('contact.description')} />
      <PageIntro heading={t('contact.heading')} lead={t('contact.lead')} />
      <section className="mx-auto max-w-6xl px-4">
        <ul className="grid gap-4 sm:grid-cols-2">
          {channels.map((channel) => (
            <li key={channel.label} className="rounded-lg border border-slate-200 p-5">
              <h2 className="text-sm font-medium text-slate-700">{channel.label}</h2>
              <a
                href={channel.href}
                className="mt-1 inline-flex min-h-11 items-center break-all font-semibold text-red-800 underline underline-offset-4"
                {...(channel.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              >
                {channel.text}
                {channel.external ? <span className="sr-only"> {t('contact.opensInNewTab')}</span> : null}
              </a>
            </li>
          ))}
        </ul>
        {data?.demo.messaging ? (
          <p className="mt-4 inline-block rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">
            {t('site.demoData')}
          </p>
        ) : null}
      </section>
    </>
  )
}
