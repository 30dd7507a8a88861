import { Menu, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import type { Currency } from '#core/preferences/preferences.ts'
import { CurrencySelect } from './currency-select.tsx'
import { LanguageSwitch } from './language-switch.tsx'
import { MainNavList } from './main-nav-list.tsx'
import { type HeaderUser, SignInLink, UserMenu } from './user-menu.tsx'

/**
 * The menu below 1280 px (site-header.tsx). A <details> element, so it opens without JavaScript; once hydrated it
 * also closes on Escape (focus returns to the button) and on navigation. On a document page the
 * page's script does the same from the data attributes (app/components/document-scripts.tsx).
 */
export function MobileMenu({ currency, user }: { currency: Currency; user: HeaderUser | null }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const summaryRef = useRef<HTMLElement>(null)
  const location = useLocation()

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to a new location
  useEffect(() => {
    setOpen(false)
  }, [location.pathname, location.search])

  return (
    <details
      data-menu
      className="group"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault()
          setOpen(false)
          summaryRef.current?.focus()
        }
      }}
    >
      <summary
        ref={summaryRef}
        className="flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
        data-label-open={t('nav.openMenu')}
        data-label-close={t('nav.closeMenu')}
      >
        <Menu aria-hidden="true" className="size-6 group-open:hidden" />
        <X aria-hidden="true" className="hidden size-6 group-open:block" />
      </summary>
      <div className="absolute inset-x-0 top-full z-20 border-b border-slate-200 bg-white px-4 pb-6 shadow-lg">
        <nav aria-label={t('nav.menu')}>
          <MainNavList
            listClassName="flex flex-col py-2"
            linkClassName={(isActive) =>
              `flex min-h-11 items-center rounded-md px-3 text-base ${isActive ? 'bg-red-50 font-semibold text-red-800' : 'text-slate-800 hover:bg-slate-100'}`
            }
          />
        </nav>
        <div className="border-t border-slate-200 py-3">
          {user ? <UserMenu user={user} stacked /> : <SignInLink />}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-4 border-t border-slate-200 pt-4">
          <LanguageSwitch />
          <CurrencySelect current={currency} idPrefix="mobile" />
        </div>
      </div>
    </details>
  )
}
