import { Bell, ClipboardList, type LucideIcon, Menu, Package, Send, UserRound, Wallet, X } from 'lucide-react'
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, matchPath, useLocation, useMatches } from 'react-router'

/**
 * The customer area's tabs, one URL each (the spec's sidebar: submit request, quote history, edit
 * profile, notifications, shipping). From 768 px a sidebar; below, a button that opens the same
 * links as a panel sliding in from the side. The panel is a <details> element, as the site's own
 * menu (app/components/layout/mobile-menu.tsx): without JavaScript it opens as a plain list under
 * the button. Once hydrated it slides in over the page, takes the focus (the current tab), keeps
 * Tab inside it, and closes on Escape (focus back on the button), on its close button, on a click
 * beside it and on navigation.
 */

type TabKey = 'submit' | 'history' | 'profile' | 'notifications' | 'shipping' | 'payments'

type Tab = {
  to: string
  key: TabKey
  end?: boolean
  /** The detail pages under the tab (a request's page is "My requests", a shipment's "Shipping"). */
  also?: readonly string[]
  Icon: LucideIcon
}

export const CUSTOMER_TABS: readonly Tab[] = [
  { to: '/user-dashboard', key: 'submit', end: true, Icon: Send },
  { to: '/user-dashboard/requests', key: 'history', Icon: ClipboardList },
  { to: '/user-dashboard/profile', key: 'profile', Icon: UserRound },
  { to: '/user-dashboard/notifications', key: 'notifications', Icon: Bell },
  {
    to: '/user-dashboard/shipping',
    key: 'shipping',
    also: ['/user-dashboard/shipments', '/user-dashboard/package-photos'],
    Icon: Package,
  },
  // The balance and its statement are money too (docs/decisions/050).
  { to: '/user-dashboard/payments', key: 'payments', also: ['/user-dashboard/balance'], Icon: Wallet },
]

/**
 * The tab a page belongs to: one its loader names (`customerTab`: an invoice is a request's quote
 * or a shipment's receipt), else the tab whose path, or one of its detail pages' paths, it is.
 */
function useCurrentTab(): Tab | undefined {
  const { pathname } = useLocation()
  const named = useMatches()
    .map((match) => (match.loaderData as { customerTab?: TabKey } | undefined)?.customerTab)
    .findLast((key) => key !== undefined)
  return tabFor(pathname, named)
}

export function tabFor(pathname: string, named?: TabKey): Tab | undefined {
  if (named) return CUSTOMER_TABS.find((tab) => tab.key === named)
  return CUSTOMER_TABS.find((tab) =>
    [tab.to, ...(tab.also ?? [])].some((path) =>
      matchPath({ path, end: path === tab.to ? (tab.end ?? false) : false }, pathname),
    ),
  )
}

/** The number beside "Notifications": visible digits, and words for screen readers. */
function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation()
  if (count <= 0) return null
  return (
    <span className="ml-auto rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{t('customerArea.unread', { count })}</span>
    </span>
  )
}

function TabLinks({ unread }: { unread: number }) {
  const { t } = useTranslation()
  const current = useCurrentTab()?.key
  return (
    <ul className="space-y-1">
      {CUSTOMER_TABS.map(({ to, key, Icon }) => (
        <li key={to}>
          <Link
            to={to}
            aria-current={key === current ? 'page' : undefined}
            className={`flex min-h-11 items-center gap-3 rounded-md border-l-4 px-3 font-semibold ${
              key === current
                ? 'border-red-700 bg-red-50 text-slate-900'
                : 'border-transparent text-slate-700 hover:bg-slate-100 hover:text-slate-900'
            }`}
          >
            <Icon aria-hidden="true" className="size-5 shrink-0" />
            <span>{t(`customerArea.${key}`)}</span>
            {key === 'notifications' ? <UnreadBadge count={unread} /> : null}
          </Link>
        </li>
      ))}
    </ul>
  )
}

/** The sidebar (from 768 px). */
export function CustomerSidebar({ unread }: { unread: number }) {
  const { t } = useTranslation()
  return (
    <nav aria-label={t('customerArea.nav')} className="hidden md:block">
      <TabLinks unread={unread} />
    </nav>
  )
}

/** The slide-in menu (below 768 px). */
export function CustomerMenu({ unread }: { unread: number }) {
  const { t } = useTranslation()
  const location = useLocation()
  const [open, setOpen] = useState(false)
  // Until hydration the panel is a plain list under the button (no script to close an overlay).
  const [enhanced, setEnhanced] = useState(false)
  const summaryRef = useRef<HTMLElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const panelId = useId()
  const tab = useCurrentTab()

  useEffect(() => setEnhanced(true), [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to a new location
  useEffect(() => {
    setOpen(false)
  }, [location.pathname, location.search])

  // Open: the focus goes to the current tab, and the page under the panel stops scrolling.
  useEffect(() => {
    if (!open || !enhanced) return
    const panel = panelRef.current
    const target = panel?.querySelector<HTMLElement>('a[aria-current="page"]') ?? panel?.querySelector('a')
    target?.focus()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = overflow
    }
  }, [open, enhanced])

  const close = () => {
    setOpen(false)
    summaryRef.current?.focus()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!open) return
    if (event.key === 'Escape') {
      event.preventDefault()
      close()
      return
    }
    if (event.key !== 'Tab' || !enhanced || !panelRef.current) return
    keepTabInside(event, panelRef.current)
  }

  return (
    <details
      className="mb-6 md:hidden"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={onKeyDown}
    >
      <summary
        ref={summaryRef}
        aria-controls={panelId}
        className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 px-3 font-semibold text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden"
      >
        <Menu aria-hidden="true" className="size-5 shrink-0" />
        <span>{t('customerArea.menuButton', { tab: t(`customerArea.${tab?.key ?? 'submit'}`) })}</span>
        {tab?.key === 'notifications' ? null : <UnreadBadge count={unread} />}
      </summary>
      <MenuPanel
        id={panelId}
        panelRef={panelRef}
        enhanced={enhanced}
        unread={unread}
        onClose={close}
        onBackdrop={() => setOpen(false)}
      />
    </details>
  )
}

/** Tab and Shift+Tab go round the open panel's links and buttons instead of leaving it. */
function keepTabInside(event: KeyboardEvent<HTMLElement>, panel: HTMLElement) {
  const focusable = [...panel.querySelectorAll<HTMLElement>('a[href], button')]
  const first = focusable[0]
  const last = focusable.at(-1)
  if (!first || !last) return
  const active = document.activeElement
  const inside = panel.contains(active)
  if (event.shiftKey && (active === first || !inside)) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (active === last || !inside)) {
    event.preventDefault()
    first.focus()
  }
}

/**
 * The menu's panel: before hydration a plain list under the button; after, a sheet over a dimmed
 * page, with its own close button.
 */
function MenuPanel({
  id,
  panelRef,
  enhanced,
  unread,
  onClose,
  onBackdrop,
}: {
  id: string
  panelRef: RefObject<HTMLDivElement | null>
  enhanced: boolean
  unread: number
  /** Closes and gives the focus back to the menu button. */
  onClose: () => void
  /** A click beside the panel. */
  onBackdrop: () => void
}) {
  const { t } = useTranslation()
  return (
    <div id={id} className={enhanced ? 'fixed inset-0 z-40 flex' : 'mt-2'}>
      {enhanced ? (
        // A click beside the panel closes it; the keyboard has Escape and the close button.
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-slate-900/50 motion-safe:animate-[fade-in_200ms_ease-out]"
          onClick={onBackdrop}
        />
      ) : null}
      <div
        ref={panelRef}
        className={
          enhanced
            ? 'relative flex h-full w-72 max-w-[85%] flex-col gap-3 overflow-y-auto bg-white p-4 shadow-xl motion-safe:animate-[slide-in-start_200ms_ease-out]'
            : ''
        }
      >
        {enhanced ? (
          <div className="flex items-center justify-between gap-2">
            <p className="font-bold text-slate-900">{t('customerArea.nav')}</p>
            <button
              type="button"
              onClick={onClose}
              aria-label={t('customerArea.closeMenu')}
              className="flex min-h-11 min-w-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100"
            >
              <X aria-hidden="true" className="size-6" />
            </button>
          </div>
        ) : null}
        <nav aria-label={t('customerArea.nav')}>
          <TabLinks unread={unread} />
        </nav>
      </div>
    </div>
  )
}
