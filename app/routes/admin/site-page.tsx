import { type FieldMetadata, getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { AdminField, AdminFieldset, AdminFormAlert } from '#app/components/admin/admin-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import {
  SITE_PAGE_LIMITS as LIMITS,
  SITE_PAGE_PATHS,
  SITE_PAGE_PLACEHOLDERS,
  SitePageFormSchema,
  type SitePageInput,
} from '#core/site-pages/site-page-text.ts'
import { getSitePage, saveSitePage } from '#core/site-pages/site-pages-service.ts'
import type { Route } from './+types/site-page.ts'

// One public page's texts in Spanish and English (ADR 038), admins only. Saved in one
// transaction with its audit record; a save another admin's overtook is refused (409) and the
// form shows the texts as they are now.

export async function loader({ params, context }: Route.LoaderArgs) {
  getUser(context)
  const { db, language } = context.get(requestContext)
  const page = await getSitePage(db, params.slug)
  return {
    slug: page.slug,
    heading: page.title[language],
    path: SITE_PAGE_PATHS[page.slug],
    fields: {
      version: String(page.version),
      title: { ...page.title },
      lead: { ...page.lead },
      body: { ...page.body },
    },
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: SitePageFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await saveSitePage(getServiceContext(context), params.slug, submission.value)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, `/admin-dashboard/pages/${params.slug}`, 'pageSaved')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function SitePageEditorRoute() {
  const { fields } = useLoaderData<typeof loader>()
  // A saved version remounts the form with the saved texts.
  return <SitePageForm key={fields.version} />
}

type Texts = Record<'es' | 'en', string>
type SitePageFormFields = { version: string; title: Texts; lead: Texts; body: Texts }

function SitePageForm() {
  const { t } = useTranslation()
  const { heading, path, fields: initial } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm<SitePageFormFields, SitePageInput>({
    id: 'site-page',
    lastResult: actionData?.result,
    defaultValue: initial,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: SitePageFormSchema }),
  })
  const title = fields.title.getFieldset()
  const lead = fields.lead.getFieldset()
  const body = fields.body.getFieldset()
  const formError = form.errors?.[0]
  const conflict = formError === 'errors.reasons.pageChanged'
  const hasFieldErrors = Object.entries(form.allErrors).some(([name]) => name !== form.name)
  const language = (code: 'es' | 'en') => t(`adminPages.languages.${code}`)
  const field = (
    meta: FieldMetadata<string>,
    label: string,
    extra: Partial<Parameters<typeof AdminField>[0]> = {},
  ) => <AdminField meta={meta} label={label} {...extra} />
  return (
    <section className="max-w-5xl">
      <PageMeta title={heading} description={t('adminPages.lead')} />
      <p>
        <Link to="/admin-dashboard/pages" className="font-semibold text-red-800 underline">
          {t('adminPages.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">{heading}</h1>
      <p className="mt-3 text-slate-700">
        <Link to={path} className="font-semibold text-red-800 underline">
          {t('adminPages.view', { path })}
        </Link>
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-8 space-y-6">
        <input type="hidden" name="version" defaultValue={initial.version} />
        <AdminFormAlert
          conflict={
            conflict ? { title: t('adminPages.conflictTitle'), text: t('errors.reasons.pageChanged') } : null
          }
          failedTitle={t('adminPages.failed')}
          formError={conflict ? undefined : formError}
          fieldErrors={hasFieldErrors && form.status === 'error'}
        />
        <div className="rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
          <p>{t('adminPages.format')}</p>
          <p className="mt-2">
            {t('adminPages.placeholders', {
              names: SITE_PAGE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', '),
            })}
          </p>
        </div>
        {(['es', 'en'] as const).map((code) => (
          <AdminFieldset key={code} legend={language(code)}>
            {field(title[code], t('adminPages.fields.title'), { max: LIMITS.title })}
            {field(lead[code], t('adminPages.fields.lead'), { max: LIMITS.lead, multiline: true })}
            <div className="sm:col-span-2">
              {field(body[code], t('adminPages.fields.body'), {
                max: LIMITS.body,
                multiline: true,
                rows: 24,
              })}
            </div>
          </AdminFieldset>
        ))}
        <button
          type="submit"
          disabled={navigation.state === 'submitting'}
          className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900 disabled:opacity-60"
        >
          {t('adminPages.save')}
        </button>
      </Form>
    </section>
  )
}
