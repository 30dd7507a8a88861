import { Camera, ChevronDown, ClipboardList, MessageCircle, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Settings } from '#core/settings/settings-schema.ts'

/**
 * "Order now" reveals the two ways to order (ADR 038): first the request form of the customer
 * area (after signing in, for a visitor), then the three messaging channels. A <details>
 * disclosure, so it works before and without JavaScript. While the messaging links are the
 * seed's placeholders (`demo`), they say so.
 */
export function OrderButton({
  messaging,
  demo,
  signedIn,
}: {
  messaging: Settings['messaging']
  demo: boolean
  signedIn: boolean
}) {
  const { t } = useTranslation()
  const channels = [
    { name: 'WhatsApp', href: messaging.whatsapp, Icon: MessageCircle },
    { name: 'Instagram', href: messaging.instagram, Icon: Camera },
    { name: 'Facebook', href: messaging.facebook, Icon: Users },
  ]
  return (
    <details className="group">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800 [&::-webkit-details-marker]:hidden">
        {t('home.order')}
        <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <div className="mt-3 max-w-xl rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <Link
          to={signedIn ? '/user-dashboard' : `/auth?redirectTo=${encodeURIComponent('/user-dashboard')}`}
          className="inline-flex min-h-11 items-center gap-2 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
        >
          <ClipboardList aria-hidden="true" className="size-5" />
          {signedIn ? t('home.orderForm') : t('home.orderFormSignIn')}
        </Link>
        <p className="mt-2 text-sm text-slate-700">{t('home.orderFormHint')}</p>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-4">
          <p className="text-sm text-slate-700">{t('home.orderHint')}</p>
          {demo ? (
            <span className="inline-block rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">
              {t('site.demoData')}
            </span>
          ) : null}
        </div>
        <ul className="mt-3 flex flex-wrap gap-2">
          {channels.map(({ name, href, Icon }) => (
            <li key={name}>
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex min-h-11 items-center gap-2 rounded-md border border-slate-300 px-4 font-semibold text-slate-900 hover:bg-slate-50"
              >
                <Icon aria-hidden="true" className="size-5" />
                {name}
                <span className="sr-only"> {t('home.opensInNewTab')}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </details>
  )
}
