import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { NAV_LINKS } from './nav-links.ts'

/** The main menu's links; the header and the mobile menu style them differently. */
export function MainNavList({
  listClassName,
  linkClassName,
}: {
  listClassName: string
  linkClassName: (isActive: boolean) => string
}) {
  const { t } = useTranslation()
  return (
    <ul className={listClassName}>
      {NAV_LINKS.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end className={({ isActive }) => linkClassName(isActive)}>
            {t(link.labelKey)}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}
