import { useTranslation } from 'react-i18next'
import { Form, Link, useLoaderData } from 'react-router'
import { AuditChange } from '#app/components/admin/audit-change.tsx'
import { inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanTimeFormatter } from '#app/lib/japan-time.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { AUDIT_KINDS } from '#core/audit/audit-kinds.ts'
import { listAuditActors, listAuditLog } from '#core/audit/audit-log.ts'
import { AuditQuerySchema } from '#core/audit/audit-query.ts'
import type { Route } from './+types/audit.ts'

// The audit log (admins only): every recorded staff action, newest first, 30 a page (keyset),
// filtered by person and kind, all in the URL. Read-only: the table refuses changes itself.

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = getServiceContext(context)
  const { language } = context.get(requestContext)
  const query = AuditQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const [page, people] = await Promise.all([listAuditLog(services, query), listAuditActors(services)])
  const format = japanTimeFormatter(language)
  return {
    language,
    filter: { actor: query.actor, kind: query.kind },
    firstPage: query.after === null,
    nextCursor: page.nextCursor,
    people,
    records: page.records.map((record) => ({ ...record, createdLabel: format(record.createdAt) })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const kindKey = (kind: string) => kind.replace('.', '_') as 'role_assign'

export default function AuditRoute() {
  const { t } = useTranslation()
  const { language, filter, firstPage, nextCursor, people, records } = useLoaderData<typeof loader>()
  const search = new URLSearchParams()
  if (filter.actor) search.set('actor', filter.actor)
  if (filter.kind) search.set('kind', filter.kind)
  const filtered = search.size > 0
  const pageHref = (after: number | null) => {
    const params = new URLSearchParams(search)
    if (after !== null) params.set('after', String(after))
    return `/admin-dashboard/audit${params.size > 0 ? `?${params}` : ''}`
  }
  return (
    <section>
      <PageMeta title={t('audit.title')} description={t('audit.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('audit.title')}</h1>
      <p className="mt-3 max-w-3xl text-slate-700">{t('audit.lead')}</p>
      <AuditFilters filter={filter} people={people} filtered={filtered} />
      {records.length === 0 ? (
        <p className="mt-6 text-slate-700">{filtered ? t('audit.emptyFiltered') : t('audit.empty')}</p>
      ) : (
        <ol className="mt-6 space-y-3" aria-label={t('audit.title')}>
          {records.map((record) => (
            <li key={record.id} className="rounded-lg border border-slate-200 p-4" data-testid="audit-record">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h2 className="font-semibold text-slate-900">
                  {AUDIT_KINDS.some((kind) => kind === record.kind)
                    ? t(`audit.kinds.${kindKey(record.kind)}`)
                    : record.kind}
                </h2>
                <p className="text-sm text-slate-700">
                  <span className="sr-only">{t('audit.when')}: </span>
                  {record.createdLabel}
                </p>
              </div>
              <p className="mt-1 break-all text-sm text-slate-700">
                {t('audit.who')}: {record.actorEmail ?? t('audit.system')}
              </p>
              <AuditChange record={record} language={language} />
            </li>
          ))}
        </ol>
      )}
      {firstPage && nextCursor === null ? null : (
        <nav aria-label={t('audit.pagesLabel')} className="mt-6 flex flex-wrap gap-4">
          {firstPage ? null : (
            <Link
              to={pageHref(null)}
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
            >
              {t('audit.newest')}
            </Link>
          )}
          {nextCursor !== null ? (
            <Link
              to={pageHref(nextCursor)}
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
            >
              {t('audit.older')}
            </Link>
          ) : null}
        </nav>
      )}
    </section>
  )
}

/** The filters: a person and a kind of action, sent in the URL, and a link that clears them. */
function AuditFilters({
  filter,
  people,
  filtered,
}: {
  filter: { actor: string | null; kind: string | null }
  people: string[]
  filtered: boolean
}) {
  const { t } = useTranslation()
  // A person filtered on who is not in the list (typed into the URL) stays selectable.
  const peopleOptions = filter.actor && !people.includes(filter.actor) ? [filter.actor, ...people] : people
  return (
    <Form
      method="get"
      aria-label={t('audit.filtersLabel')}
      className="mt-6 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 p-4"
    >
      <div className="min-w-0 max-w-full space-y-1">
        <label htmlFor="audit-actor" className="block text-sm font-medium text-slate-800">
          {t('audit.person')}
        </label>
        <select
          id="audit-actor"
          name="actor"
          defaultValue={filter.actor ?? ''}
          className={`${inputClass} w-auto max-w-full`}
        >
          <option value="">{t('audit.everyone')}</option>
          {peopleOptions.map((email) => (
            <option key={email} value={email}>
              {email}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0 max-w-full space-y-1">
        <label htmlFor="audit-kind" className="block text-sm font-medium text-slate-800">
          {t('audit.kind')}
        </label>
        <select
          id="audit-kind"
          name="kind"
          defaultValue={filter.kind ?? ''}
          className={`${inputClass} w-auto max-w-full`}
        >
          <option value="">{t('audit.allKinds')}</option>
          {AUDIT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`audit.kinds.${kindKey(kind)}`)}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900"
      >
        {t('audit.apply')}
      </button>
      {filtered ? (
        <Link
          to="/admin-dashboard/audit"
          className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
        >
          {t('audit.clear')}
        </Link>
      ) : null}
    </Form>
  )
}
