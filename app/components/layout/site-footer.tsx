import type { ParseKeys } from 'i18next'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { href, Link } from 'react-router'
import { ConsentSettingsButton } from '#app/components/consent/consent-banner.tsx'
import type { Settings } from '#core/settings/settings-schema.ts'
import { NAV_LINKS } from './nav-links.ts'

type FooterProps = {
  /** The company's details, the address in the page's language (app/root.tsx). */
  company: Omit<Settings['company'], 'address'> & { address: string }
  isDemoCompany: boolean
  year: number
  /** Third-party widgets are configured: let the visitor change their consent. */
  showConsentSettings: boolean
}
type FooterLink = { to: string; labelKey: ParseKeys }

const USEFUL_LINKS: FooterLink[] = [
  { to: href('/store-guide'), labelKey: 'footer.whereToShop' },
  { to: href('/calculator'), labelKey: 'footer.calculatorsBeta' },
  { to: href('/services'), labelKey: 'footer.services' },
  { to: href('/contact'), labelKey: 'footer.contact' },
]

// The spec points both legal links at /contact until legal pages exist.
const LEGAL_LINKS: FooterLink[] = [
  { to: href('/contact'), labelKey: 'footer.termsOfUse' },
  { to: href('/contact'), labelKey: 'footer.privacyCookies' },
]

const LINK_CLASS = 'inline-flex min-h-11 items-center text-slate-200 underline-offset-4 hover:underline'

function FooterSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-sm font-semibold uppercase tracking-wide text-white">
        {title}
      </h2>
      {children}
    </section>
  )
}

function FooterLinks({ links }: { links: readonly FooterLink[] }) {
  const { t } = useTranslation()
  return (
    <ul>
      {links.map((link) => (
        <li key={link.labelKey}>
          <Link to={link.to} className={LINK_CLASS}>
            {t(link.labelKey)}
          </Link>
        </li>
      ))}
    </ul>
  )
}

export function SiteFooter({ company, isDemoCompany, year, showConsentSettings }: FooterProps) {
  const { t } = useTranslation()
  return (
    <footer className="mt-16 bg-slate-900 text-slate-200 print:hidden">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <FooterSection id="footer-menu" title={t('footer.menu')}>
          <FooterLinks links={NAV_LINKS} />
        </FooterSection>
        <FooterSection id="footer-more" title={t('footer.usefulLinks')}>
          <FooterLinks links={USEFUL_LINKS} />
        </FooterSection>
        <FooterSection id="footer-legal" title={t('footer.legal')}>
          <FooterLinks links={LEGAL_LINKS} />
          {showConsentSettings ? <ConsentSettingsButton /> : null}
        </FooterSection>
        <FooterSection id="footer-company" title={t('footer.company')}>
          <address className="space-y-1 text-sm not-italic">
            <p className="font-semibold text-white">{company.name}</p>
            <p>{company.address}</p>
            <p>
              <a href={`mailto:${company.email}`} className={LINK_CLASS}>
                {company.email}
              </a>
            </p>
            <p>{t('footer.taxRegistrationId', { id: company.taxRegistrationId })}</p>
            <p>{t('footer.basedIn')}</p>
            {/* The seller disclosure Japanese law asks for (ADR 038). */}
            <p>
              <Link to="/seller-disclosure" className={LINK_CLASS}>
                {t('footer.sellerDisclosure')}
              </Link>
            </p>
            {isDemoCompany ? (
              <p className="inline-block rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">
                {t('site.demoData')}
              </p>
            ) : null}
          </address>
        </FooterSection>
      </div>
      <p className="border-t border-slate-700 px-4 py-4 text-center text-xs text-slate-300">
        {t('footer.copyright', { year, company: company.name })}
      </p>
    </footer>
  )
}
