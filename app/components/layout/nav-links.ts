import { href } from 'react-router'

/** The main menu, in order; `labelKey` is an i18n key under `nav`. */
export const NAV_LINKS = [
  { to: href('/'), labelKey: 'nav.home' },
  { to: href('/services'), labelKey: 'nav.services' },
  { to: href('/calculator'), labelKey: 'nav.calculator' },
  { to: href('/store-guide'), labelKey: 'nav.storeGuide' },
  { to: href('/contact'), labelKey: 'nav.contact' },
] as const
