import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Currency } from '#core/preferences/preferences.ts'
import { CurrencySelect } from './currency-select.tsx'
import { LanguageSwitch } from './language-switch.tsx'
import { MainNavList } from './main-nav-list.tsx'
import { MobileMenu } from './mobile-menu.tsx'
import { NotificationsLink } from './notifications-link.tsx'
import { AreaLink, type HeaderUser, SignInLink, UserMenu } from './user-menu.tsx'

/**
 * One line at every width from 320 px: up to 1279 px the menu button holds the navigation, the
 * account and the preferences; from 1280 px they sit in the bar. Unlike the spec (whose customer
 * area was a demo), visitors get a "Sign in" link and signed-in people, at every width, a button
 * to their area (docs/decisions/012).
 */
export function SiteHeader({
  brand,
  currency,
  user,
  unreadNotifications = 0,
}: {
  brand: string
  currency: Currency
  user: HeaderUser | null
  /** The signed-in user's unread notifications (the bell). */
  unreadNotifications?: number
}) {
  const { t } = useTranslation()
  return (
    <header className="relative border-b border-slate-200 bg-white print:hidden">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-30 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {t('site.skipToContent')}
      </a>
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-2">
        <Link to="/" className="flex min-h-11 min-w-0 flex-col justify-center leading-tight">
          <span className="truncate font-bold text-red-800">{brand}</span>
          <span className="truncate text-xs text-slate-600">{t('site.tagline')}</span>
        </Link>
        <nav aria-label={t('nav.label')} className="hidden xl:block">
          <MainNavList
            listClassName="flex items-center whitespace-nowrap"
            linkClassName={(isActive) =>
              `inline-flex min-h-11 items-center rounded-md px-2 text-sm ${isActive ? 'font-semibold text-red-800' : 'text-slate-700 hover:bg-slate-100'}`
            }
          />
        </nav>
        {/* Short of room (Spanish, an admin's badge), this side gives way before the brand: the
            welcome line takes an ellipsis, the way to their area never. */}
        <div className="hidden shrink-[8] items-center gap-2 xl:flex [&>*]:shrink-0 [&>*:first-child]:shrink">
          {user ? <UserMenu user={user} unreadNotifications={unreadNotifications} /> : <SignInLink />}
          <LanguageSwitch />
          <CurrencySelect current={currency} idPrefix="header" compact />
        </div>
        <div className="flex shrink-0 items-center gap-1 xl:hidden">
          {/* The way in (or to their area) stays in the bar at every width; below 640 px a
              visitor's "Sign in" is in the menu. */}
          {user ? (
            <AreaLink role={user.role} />
          ) : (
            <span className="hidden sm:inline-flex">
              <SignInLink />
            </span>
          )}
          {user ? <NotificationsLink unread={unreadNotifications} staff={user.role !== 'user'} /> : null}
          <MobileMenu currency={currency} user={user} />
        </div>
      </div>
    </header>
  )
}
