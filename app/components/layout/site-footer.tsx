import { useTranslation } from 'react-i18next'
import { href, Link } from 'react-router'
import type { Settings } from '#core/settings/settings-schema.ts'
import { NAV_LINKS } from './nav-links.ts'

type FooterProps = { company: Settings['company']; isDemoCompany: boolean; year: number }

// The spec points both legal links at /contact until legal pages exist.
const LEGAL_LINKS = [
  { to: href('/contact'), labelKey: 'footer.termsOfUse' },
  { to: href('/contact'), labelKey: 'footer.privacyCookies' },
] as const

export function SiteFooter({ company, isDemoCompany, year }: FooterProps) {
  const { t } = useTranslation()
  const linkClass = 'inline-flex min-h-11 items-center text-slate-200 underline-offset-4 hover:underline'
  return (
    <footer className="mt-16 bg-slate-900 text-slate-200">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-menu">
          <h2 id="footer-menu" className="text-sm font-semibold uppercase tracking-wide text-white">
            {t('footer.menu')}
          </h2>
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {t(link.labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-more">
          <h2 id="footer-more" className="text-sm font-semibold uppercase tracking-wide text-white">
            {t('footer.usefulLinks')}
          </h2>
          <ul>
            <li>
              <Link to={href('/store-guide')} className={linkClass}>
                {t('footer.whereToShop')}
              </Link>
            </li>
            <li>
              <Link to={href('/calculator')} className={linkClass}>
                {t('footer.calculatorsBeta')}
              </Link>
            </li>
            <li>
              <Link to={href('/services')} className={linkClass}>
                {t('footer.services')}
              </Link>
            </li>
            <li>
              <Link to={href('/contact')} className={linkClass}>
                {t('footer.contact')}
              </Link>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="text-sm font-semibold uppercase tracking-wide text-white">
            {t('footer.legal')}
          </h2>
          <ul>
            {LEGAL_LINKS.map((link) => (
              <li key={link.labelKey}>
                <Link to={link.to} className={linkClass}>
                  {t(link.labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-company">
          <h2 id="footer-company" className="text-sm font-semibold uppercase tracking-wide text-white">
            {t('footer.company')}
          </h2>
          <address className="space-y-1 text-sm not-italic">
            <p className="font-semibold text-white">{company.name}</p>
            <p>{company.address}</p>
            <p>
              <a href={`mailto:${company.email}`} className={linkClass}>
                {company.email}
              </a>
            </p>
            <p>{t('footer.taxRegistrationId', { id: company.taxRegistrationId })}</p>
            <p>{t('footer.basedIn')}</p>
            {isDemoCompany ? (
              <p className="inline-block rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">
                {t('site.demoData')}
              </p>
            ) : null}
          </address>
        </section>
      </div>
      <p className="border-t border-slate-700 px-4 py-4 text-center text-xs text-slate-300">
        {t('footer.copyright', { year, company: company.name })}
      </p>
    </footer>
  )
}
