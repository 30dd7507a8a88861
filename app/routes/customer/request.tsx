import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { RequestItems } from '#app/components/orders/request-items.tsx'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { formFailure, throwRouteError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { CancelRequestSchema } from '#core/orders/request-schemas.ts'
import { cancelRequest, getRequest } from '#core/orders/request-service.ts'
import type { Route } from './+types/request.ts'

// One of the customer's requests: its items, its history, and "cancel" while that is possible.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const detail = await getRequest(getServiceContext(context), params.id).catch(throwRouteError)
  const format = japanDateTime(context.get(requestContext).language)
  const search = new URL(request.url).searchParams
  return {
    request: {
      ...detail,
      submittedLabel: format(detail.submittedAt),
      events: detail.events.map((event) => ({ ...event, createdLabel: format(event.createdAt) })),
    },
    notice:
      search.get('sent') === '1'
        ? ('sent' as const)
        : search.get('cancelled') === '1'
          ? ('cancelled' as const)
          : null,
  }
}

/** Cancel, with the version the page showed: a second click finds it changed (409). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  formData.set('id', params.id)
  const submission = parseWithZod(formData, { schema: CancelRequestSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await cancelRequest(getServiceContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirect(`/user-dashboard/requests/${params.id}?cancelled=1`)
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyRequestRoute() {
  const { t } = useTranslation()
  const { request, notice } = useLoaderData<typeof loader>()
  const title = t('requests.detailTitle', { number: request.number })
  return (
    <article aria-labelledby="request-heading" className="space-y-8">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/user-dashboard/requests" className="font-semibold text-red-800 underline">
          {t('requests.back')}
        </Link>
      </p>
      {notice ? (
        <p role="status" className="rounded-md bg-emerald-50 p-3 font-medium text-emerald-900">
          {notice === 'sent' ? t('requests.sent', { number: request.number }) : t('requests.cancelled')}
        </p>
      ) : null}
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="request-heading" className="text-3xl font-bold text-slate-900">
          {title}
        </h1>
        <StatusBadge status={request.status} label={t(`requests.status.${request.status}`)} />
      </header>
      <p className="text-slate-700">
        {t('requests.submittedAt')}: {request.submittedLabel} ({t('requests.japanTime')})
      </p>
      {request.customerNote ? (
        <section aria-labelledby="note-heading">
          <h2 id="note-heading" className="text-xl font-semibold text-slate-900">
            {t('requests.yourNote')}
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-800">{request.customerNote}</p>
        </section>
      ) : null}
      <RequestItems
        heading={t('requests.itemsHeading')}
        items={request.items}
        linkLabel={(item) => t('requests.openLink', { host: item.storeName ?? item.shopHost })}
        photo={(item) =>
          item.photo
            ? {
                src: `/user-dashboard/requests/${request.id}/photos/${item.photo.id}`,
                alt: t('requests.photoAlt', { number: item.position }),
                width: item.photo.width,
                height: item.photo.height,
              }
            : null
        }
        details={(item) => (
          <>
            <p className="mt-1 text-slate-800">{t('requests.quantityValue', { quantity: item.quantity })}</p>
            {item.notes ? <p className="mt-1 whitespace-pre-line text-slate-800">{item.notes}</p> : null}
          </>
        )}
      />
      <RequestTimeline
        headingId="timeline-heading"
        heading={t('requests.timeline')}
        events={request.events}
        eventLabel={(event) => t(`requests.events.${event.event as 'submit'}`)}
        detail={(event) => event.createdLabel}
      />
      {request.actions.includes('cancel') ? <CancelForm version={request.version} /> : null}
    </article>
  )
}

function CancelForm({ version }: { version: number }) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const [form] = useForm({ id: 'cancel-request', lastResult: actionData?.result })
  const formError = form.errors?.[0] ? t(form.errors[0] as 'errors.codes.invalid') : null
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <p className="text-sm text-slate-700">{t('requests.cancelHint')}</p>
      {formError ? (
        <p id={form.errorId} role="alert" className="font-medium text-red-800">
          {formError}
        </p>
      ) : null}
      <input type="hidden" name="version" value={version} />
      <button
        type="submit"
        className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
      >
        {t('requests.cancel')}
      </button>
    </Form>
  )
}
