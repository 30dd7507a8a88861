import { NavLink } from 'react-router'

/** The tabs of a signed-in area, as links (each tab is a URL); the current one is marked. */
export function AreaNav({
  label,
  links,
}: {
  label: string
  links: { to: string; text: string; end?: boolean }[]
}) {
  return (
    <nav aria-label={label} className="mb-8 border-b border-slate-200 print:hidden">
      <ul className="flex flex-wrap gap-x-2">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end ?? false}
              className={({ isActive }) =>
                `inline-flex min-h-11 items-center border-b-4 px-3 font-semibold ${
                  isActive
                    ? 'border-red-700 text-slate-900'
                    : 'border-transparent text-slate-700 hover:text-slate-900'
                }`
              }
            >
              {link.text}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
