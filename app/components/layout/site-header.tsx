import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Currency } from '#core/preferences/preferences.ts'
import { CurrencySelect } from './currency-select.tsx'
import { LanguageSwitch } from './language-switch.tsx'
import { MainNavList } from './main-nav-list.tsx'
import { MobileMenu } from './mobile-menu.tsx'
import { type HeaderUser, UserMenu } from './user-menu.tsx'

// The spec hides the login link: sign-in is reached from protected pages and /auth.
export function SiteHeader({
  brand,
  currency,
  user,
}: {
  brand: string
  currency: Currency
  user: HeaderUser | null
}) {
  const { t } = useTranslation()
  return (
    <header className="relative border-b border-slate-200 bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-30 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {t('site.skipToContent')}
      </a>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2">
        <Link to="/" className="flex min-h-11 flex-col justify-center leading-tight">
          <span className="font-bold text-red-800">{brand}</span>
          <span className="text-xs text-slate-600">{t('site.tagline')}</span>
        </Link>
        <nav aria-label={t('nav.label')} className="hidden md:block">
          <MainNavList
            listClassName="flex items-center gap-1"
            linkClassName={(isActive) =>
              `inline-flex min-h-11 items-center rounded-md px-3 text-sm ${isActive ? 'font-semibold text-red-800' : 'text-slate-700 hover:bg-slate-100'}`
            }
          />
        </nav>
        <div className="hidden items-center gap-3 md:flex">
          {user ? <UserMenu user={user} /> : null}
          <LanguageSwitch />
          <CurrencySelect current={currency} idPrefix="header" />
        </div>
        <MobileMenu currency={currency} user={user} />
      </div>
    </header>
  )
}
