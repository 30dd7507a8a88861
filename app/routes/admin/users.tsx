import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { refusalOf, toPublicError } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { AssignRoleSchema, assignRole, canAssignRoles } from '#core/accounts/roles.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { ROLE_NAMES, type RoleName } from '#core/shared/service-context.ts'
import { listUsers } from '#core/users/user-admin.ts'
import { USER_SEARCH_MAX, USER_SORTS, type UserSort } from '#core/users/user-list.ts'
import type { Route } from './+types/users.ts'

// The admin panel's users (docs/decisions/024-admin-users.md): ?q= searches name or e-mail
// (accents and case aside), ?role= filters, ?sort= orders, ?cursor= pages: a plain GET form, so
// every view has its address and works without JavaScript. Staff read it; admins change roles
// here (the spec's toasts), through core/accounts/roles.ts.

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams
  const ctx = getServiceContext(context)
  const format = japanDateTime(context.get(requestContext).language)
  const base = {
    canAssign: canAssignRoles(ctx.actor),
    me: ctx.actor?.id ?? '',
    first: !search.get('cursor'),
  }
  try {
    const page = await listUsers(ctx, {
      q: search.get('q'),
      role: search.get('role'),
      sort: search.get('sort'),
      cursor: search.get('cursor'),
    })
    return {
      ...base,
      q: page.q,
      role: page.role,
      sort: page.sort,
      nextCursor: page.nextCursor,
      problem: null,
      rows: page.rows.map((row) => ({ ...row, createdLabel: format(row.createdAt) })),
    }
  } catch (error) {
    // A search too long or a page link that is not ours: said on the page, with the form.
    if (isAppError(error) && error.code === 'invalid') {
      return data(
        {
          ...base,
          q: (search.get('q') ?? '').slice(0, USER_SEARCH_MAX),
          role: null,
          sort: 'newest' as UserSort,
          nextCursor: null,
          problem: toPublicError(error).messageKey,
          rows: [],
        },
        { status: 400 },
      )
    }
    throw error
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

/** `role`: an admin gives a user another role; back to the same list with the toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const ctx = getServiceContext(context)
  const userId = String(formData.get('userId') ?? '')
  const back = String(formData.get('back') ?? '')
  try {
    const input = AssignRoleSchema.safeParse({ userId, role: formData.get('role') })
    if (!input.success) {
      throw new AppError('invalid', 'Role assignment input is not valid', { reason: 'invalidRoleInput' })
    }
    const assigned = await assignRole(ctx, input.data)
    const list = new URL(
      back.startsWith('/admin-dashboard/users') ? back : '/admin-dashboard/users',
      'http://x',
    )
    // The spec's "Role assigned" toast, through the one notice channel.
    return redirectWithNotice(context, `${list.pathname}${list.search}`, {
      name: 'roleAssigned',
      params: { role: assigned.role },
    })
  } catch (caught) {
    const refusal = refusalOf(caught)
    return data(
      { userId, denied: refusal.error.code === 'forbidden', messageKey: refusal.messageKey },
      refusal.init,
    )
  }
}

function listHref(params: {
  q?: string | null
  role?: string | null
  sort?: string | null
  cursor?: string | null
}) {
  const search = new URLSearchParams()
  if (params.q) search.set('q', params.q)
  if (params.role) search.set('role', params.role)
  if (params.sort && params.sort !== 'newest') search.set('sort', params.sort)
  if (params.cursor) search.set('cursor', params.cursor)
  const query = search.toString()
  return `/admin-dashboard/users${query ? `?${query}` : ''}`
}

const COLUMNS = ['email', 'name', 'role', 'createdAt', 'verified', 'twoStep'] as const

export default function UsersRoute() {
  const { t } = useTranslation()
  const { rows, q, role, sort, nextCursor, first, canAssign, me, problem } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const navigation = useNavigation()
  const here = listHref({ q, role, sort })
  return (
    <section aria-labelledby="users-heading">
      <PageMeta title={t('adminUsers.title')} description={t('adminUsers.lead')} />
      <h1 id="users-heading" className="text-3xl font-bold text-slate-900">
        {t('adminUsers.title')}
      </h1>
      <p className="mt-2 text-slate-700">{t(canAssign ? 'adminUsers.lead' : 'adminUsers.leadReadOnly')}</p>

      {failed ? (
        <FormAlert
          look="box"
          title={failed.denied ? t('roles.deniedTitle') : t('roles.failedTitle')}
          className="mt-4"
          detailClassName=""
        >
          {errorText(t, failed.messageKey)}
        </FormAlert>
      ) : null}

      <UserFilters q={q} role={role} sort={sort} />

      {problem ? (
        <FormAlert className="mt-4">{errorText(t, problem)}</FormAlert>
      ) : rows.length === 0 ? (
        <p className="mt-6 text-slate-700">
          {t(q || role ? 'adminUsers.emptyFiltered' : 'adminUsers.empty')}
        </p>
      ) : (
        <UsersTable
          rows={rows}
          canAssign={canAssign}
          me={me}
          here={here}
          submitting={navigation.state === 'submitting'}
        />
      )}
      <nav aria-label={t('adminUsers.pagesLabel')} className="mt-6 flex flex-wrap gap-4">
        {!first ? (
          <Link to={here} className="font-semibold text-red-800 underline">
            {t('adminUsers.firstPage')}
          </Link>
        ) : null}
        {nextCursor ? (
          <Link
            to={listHref({ q, role, sort, cursor: nextCursor })}
            className="font-semibold text-red-800 underline"
          >
            {t('adminUsers.nextPage')}
          </Link>
        ) : null}
      </nav>
    </section>
  )
}

type Row = Route.ComponentProps['loaderData']['rows'][number]

/** The plain GET form: search by name or e-mail, filter by role, order. */
function UserFilters({ q, role, sort }: { q: string; role: RoleName | null; sort: UserSort }) {
  const { t } = useTranslation()
  const roleName = (name: RoleName) => t(`session.roles.${name}`)
  return (
    <Form method="get" className="mt-6 flex flex-wrap items-end gap-3">
      <div className="min-w-64 flex-1 space-y-1">
        <label htmlFor="users-q" className="block text-sm font-medium text-slate-800">
          {t('adminUsers.search')}
        </label>
        <input
          id="users-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={USER_SEARCH_MAX}
          aria-describedby="users-q-hint"
          className={inputClass}
        />
        <p id="users-q-hint" className="text-xs text-slate-600">
          {t('adminUsers.searchHint')}
        </p>
      </div>
      <div className="space-y-1 pb-5">
        <label htmlFor="users-role" className="block text-sm font-medium text-slate-800">
          {t('adminUsers.roleFilter')}
        </label>
        <select id="users-role" name="role" defaultValue={role ?? ''} className={inputClass}>
          <option value="">{t('adminUsers.allRoles')}</option>
          {ROLE_NAMES.map((name) => (
            <option key={name} value={name}>
              {roleName(name)}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1 pb-5">
        <label htmlFor="users-sort" className="block text-sm font-medium text-slate-800">
          {t('adminUsers.sort')}
        </label>
        <select id="users-sort" name="sort" defaultValue={sort} className={inputClass}>
          {USER_SORTS.map((name) => (
            <option key={name} value={name}>
              {t(`adminUsers.sorts.${name}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex gap-3 pb-5">
        <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
          {t('adminUsers.apply')}
        </button>
        {q || role || sort !== 'newest' ? (
          <Link
            to="/admin-dashboard/users"
            className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 font-semibold"
          >
            {t('adminUsers.clear')}
          </Link>
        ) : null}
      </div>
    </Form>
  )
}

/** The users of this page; admins change a role on each row (not their own). */
function UsersTable({
  rows,
  canAssign,
  me,
  here,
  submitting,
}: {
  rows: readonly Row[]
  canAssign: boolean
  me: string
  here: string
  submitting: boolean
}) {
  const { t } = useTranslation()
  return (
    // Below 768 px each row is a card (app/app.css, `row-cards`): nothing scrolls sideways.
    <div className="relative mt-6 overflow-x-auto">
      <table className="row-cards w-full text-left text-sm md:min-w-[48rem]">
        <caption className="sr-only">{t('adminUsers.caption')}</caption>
        <thead className="border-b border-slate-300 text-slate-800">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="py-2 pr-3">
                {t(`adminUsers.columns.${column}`)}
              </th>
            ))}
            {canAssign ? (
              <th scope="col" className="py-2">
                {t('adminUsers.columns.changeRole')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <UserRow
              key={row.id}
              row={row}
              canAssign={canAssign}
              me={me}
              here={here}
              submitting={submitting}
            />
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** One user: e-mail (to their page), name, role, dates and checks; the role form for admins. */
function UserRow({
  row,
  canAssign,
  me,
  here,
  submitting,
}: {
  row: Row
  canAssign: boolean
  me: string
  here: string
  submitting: boolean
}) {
  const { t } = useTranslation()
  const roleName = (name: RoleName) => t(`session.roles.${name}`)
  const yesNo = (value: boolean) => (value ? t('adminUsers.yes') : t('adminUsers.no'))
  const unknown = (value: string) => value.trim() || t('adminUsers.unknown')
  return (
    <tr className="border-b border-slate-200 align-top" data-testid="user-row">
      <td className="py-2 pr-3 break-all">
        <Link to={`/admin-dashboard/users/${row.id}`} className="font-semibold text-red-800 underline">
          {unknown(row.email)}
        </Link>
        {row.disabled ? (
          <span className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-900">
            {t('adminUsers.disabled')}
          </span>
        ) : null}
      </td>
      <td className="py-2 pr-3" data-label={t('adminUsers.columns.name')}>
        {unknown(row.name)}
      </td>
      <td className="py-2 pr-3" data-label={t('adminUsers.columns.role')}>
        {roleName(row.role)}
      </td>
      <td className="py-2 pr-3 md:whitespace-nowrap" data-label={t('adminUsers.columns.createdAt')}>
        {row.createdLabel}
      </td>
      <td className="py-2 pr-3" data-label={t('adminUsers.columns.verified')}>
        {yesNo(row.emailVerified)}
      </td>
      <td className="py-2 pr-3" data-label={t('adminUsers.columns.twoStep')}>
        {yesNo(row.twoStep)}
      </td>
      {canAssign ? (
        <td className="py-2" data-label={t('adminUsers.columns.changeRole')} data-stack>
          {row.id === me ? (
            <span className="text-slate-700">{t('adminUsers.you')}</span>
          ) : (
            <Form method="post" className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="userId" value={row.id} />
              <input type="hidden" name="back" value={here} />
              <label htmlFor={`role-${row.id}`} className="sr-only">
                {t('adminUsers.newRoleFor', { email: unknown(row.email) })}
              </label>
              <select
                id={`role-${row.id}`}
                name="role"
                defaultValue=""
                className={`${inputClass} md:w-auto`}
                required
              >
                <option value="" disabled>
                  {t('adminUsers.chooseRole')}
                </option>
                {ROLE_NAMES.filter((name) => name !== row.role).map((name) => (
                  <option key={name} value={name}>
                    {roleName(name)}
                  </option>
                ))}
              </select>
              <button
                type="submit"
                disabled={submitting}
                aria-label={t('adminUsers.changeRoleFor', { email: unknown(row.email) })}
                className="min-h-11 rounded-md border border-slate-700 px-3 font-semibold text-slate-900 hover:bg-slate-100"
              >
                {t('adminUsers.changeRole')}
              </button>
            </Form>
          )}
        </td>
      ) : null}
    </tr>
  )
}
