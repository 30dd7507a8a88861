import { type FieldMetadata, getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { AdminField, AdminFieldset, AdminFormAlert } from '#app/components/admin/admin-field.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StoreLogo } from '#app/components/store-monogram.tsx'
import { requestContext } from '#app/context.ts'
import { readForm } from '#app/lib/form-data.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure, refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { STORE_CATEGORIES } from '#core/catalog/store-categories.ts'
import {
  getStoreForEditing,
  removeStoreLogo,
  requireStoreEditor,
  saveStore,
  setStoreLogo,
} from '#core/catalog/store-editor.ts'
import {
  STORE_TEXT_LIMITS as LIMITS,
  LOGO_MIN_CONTRAST,
  type StoreFormFields,
  type StoreFormOutput,
  StoreFormSchema,
  storeFormFields,
} from '#core/catalog/store-form.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { LOGO_INPUT_ACCEPT, MAX_LOGO_BYTES } from '#core/uploads/logo-rules.ts'
import type { Route } from './+types/store.ts'

// One store of the guide, new (/admin-dashboard/stores/new) or to edit (/:id), admins only
// (docs/decisions/026-store-guide-editor.md): names and descriptions in both languages, the
// categories, the monogram; on a saved store, its logo (PNG or SVG, re-encoded as our own PNG).
// A save another admin's save overtook is refused (409) with what is saved now beside each field.

function storeId(params: { id?: string }): number | null {
  if (params.id === undefined) return null
  if (!/^\d{1,9}$/.test(params.id))
    throw new AppError('not_found', 'Bad store id', { reason: 'storeNotFound' })
  return Number(params.id)
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const ctx = getServiceContext(context)
  const id = storeId(params)
  if (id === null) {
    // The service's own check: a moderator never gets the empty form either.
    requireStoreEditor(ctx.actor)
    return { store: null, fields: storeFormFields(null) }
  }
  const store = await getStoreForEditing(ctx, id)
  return { store, fields: storeFormFields(store.values, store.version) }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

type Fresh = { version: string; changed: Record<string, string> } | null

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = getServiceContext(context)
  const { catalog } = context.get(requestContext)
  const read = await readForm(request, { maxFiles: 1, maxBytes: MAX_LOGO_BYTES + 64 * 1024 })
  if (!read.ok) {
    // Only the logo form can be this large: its own message, with the form to try again.
    const tooLarge = read.problem === 'tooLarge'
    return data(
      {
        logoProblem: tooLarge ? 'errors.reasons.logoTooLarge' : 'errors.codes.invalid',
        result: undefined,
        fresh: null as Fresh,
      },
      { status: tooLarge ? 413 : 400 },
    )
  }
  const formData = read.formData
  const intent = String(formData.get('intent') ?? 'save')
  const id = storeId(params)

  if (intent === 'logo' || intent === 'removeLogo') {
    try {
      if (id === null) throw new AppError('not_found', 'No store for a logo', { reason: 'storeNotFound' })
      if (intent === 'removeLogo') await removeStoreLogo(ctx, id)
      else {
        const file = formData.get('logo')
        if (!(file instanceof File)) throw new AppError('invalid', 'No logo file', { reason: 'logoEmpty' })
        await setStoreLogo(ctx, id, new Uint8Array(await file.arrayBuffer()))
      }
      catalog.changed()
      return redirectWithNotice(context, `/admin-dashboard/stores/${id}`, 'storeSaved')
    } catch (caught) {
      const refusal = refusalOf(caught)
      return data({ logoProblem: refusal.messageKey, result: undefined, fresh: null as Fresh }, refusal.init)
    }
  }

  const submission = parseSubmission(formData, { schema: StoreFormSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), fresh: null as Fresh, logoProblem: null }, { status: 400 })
  }
  try {
    const saved = await saveStore(ctx, { id, ...submission.value })
    catalog.changed()
    return redirectWithNotice(
      context,
      saved.created ? '/admin-dashboard/stores' : `/admin-dashboard/stores/${saved.id}`,
      'storeSaved',
    )
  } catch (error) {
    let fresh: Fresh = null
    if (isAppError(error, 'conflict') && id !== null) {
      // What is saved now: the next save goes through on purpose, and the form says what differs.
      const now = await getStoreForEditing(ctx, id)
      const saved = storeFormFields(now.values, now.version)
      const sent = storeFormFields(submission.value.values)
      const changed: Record<string, string> = {}
      for (const key of Object.keys(saved) as (keyof StoreFormFields)[]) {
        if (key === 'version') continue
        const [a, b] = [saved[key], sent[key]].map((value) =>
          Array.isArray(value) ? value.join(', ') : value,
        )
        if (a !== b) changed[key] = String(a)
      }
      fresh = { version: saved.version, changed }
    }
    return formFailure(error, submission, { fresh, logoProblem: null })
  }
}

export default function StoreRoute() {
  const { fields } = useLoaderData<typeof loader>()
  return <StoreForm key={`${fields.version}`} />
}

function StoreForm() {
  const { t } = useTranslation()
  const { store, fields: initial } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm<StoreFormFields, StoreFormOutput>({
    id: 'store',
    lastResult: actionData?.result,
    defaultValue: initial,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: StoreFormSchema }),
  })
  const fresh = actionData?.fresh ?? null
  const version = fresh?.version ?? initial.version
  const formError = form.errors?.[0]
  const hasFieldErrors = Object.entries(form.allErrors).some(([name]) => name !== form.name)
  const title = store ? store.name : t('adminStores.newTitle')
  const field = (
    meta: FieldMetadata<string>,
    label: string,
    extra: Partial<Parameters<typeof AdminField>[0]> = {},
  ) => <AdminField meta={meta} label={label} savedNow={fresh?.changed[meta.name]} {...extra} />
  const busy = navigation.state === 'submitting'
  return (
    <section className="max-w-4xl">
      <PageMeta title={title} description={t('adminStores.lead')} />
      <p>
        <Link to="/admin-dashboard/stores" className="text-sm text-red-800 underline underline-offset-4">
          {t('adminStores.back')}
        </Link>
      </p>
      <div className="mt-2 flex items-center gap-4">
        {store ? <StoreLogo url={store.logoUrl} text={store.logoText} color={store.logoColor} /> : null}
        <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      </div>
      {store?.hidden ? (
        <p className="mt-2 font-medium text-slate-800">{t('adminStores.hiddenNote')}</p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-8 space-y-6">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="version" key={version} defaultValue={version} />
        <AdminFormAlert
          conflict={
            fresh ? { title: t('adminStores.conflictTitle'), text: t('adminStores.conflictText') } : null
          }
          failedTitle={t('adminStores.failed')}
          formError={formError}
          fieldErrors={hasFieldErrors && form.status === 'error'}
        />
        <AdminFieldset legend={t('adminStores.sections.store')}>
          {field(fields.name, t('adminStores.fields.name'), { max: LIMITS.name })}
          {field(fields.url, t('adminStores.fields.url'), {
            type: 'url',
            inputMode: 'url',
            hint: t('adminStores.hints.url'),
          })}
          {field(fields.descriptionEs, t('adminStores.fields.descriptionEs'), {
            max: LIMITS.description,
            multiline: true,
          })}
          {field(fields.descriptionEn, t('adminStores.fields.descriptionEn'), {
            max: LIMITS.description,
            multiline: true,
          })}
        </AdminFieldset>
        <CategoriesFieldset
          meta={fields.categories}
          initial={initial.categories}
          savedNow={fresh?.changed.categories}
        />
        <AdminFieldset legend={t('adminStores.sections.monogram')} lead={t('adminStores.hints.monogram')}>
          {field(fields.logoText, t('adminStores.fields.logoText'), { max: LIMITS.logoText })}
          <ColorField meta={fields.logoColor} savedNow={fresh?.changed.logoColor} />
        </AdminFieldset>
        <button
          type="submit"
          disabled={busy}
          className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900 disabled:opacity-60"
        >
          {t(store ? 'adminStores.save' : 'adminStores.create')}
        </button>
      </Form>
      {store ? (
        <LogoForms logoUrl={store.logoUrl} problem={actionData?.logoProblem ?? null} busy={busy} />
      ) : null}
    </section>
  )
}

/** The store's categories, one checkbox each, with what is saved now after a conflict. */
function CategoriesFieldset({
  meta,
  initial,
  savedNow,
}: {
  meta: FieldMetadata<string[]>
  initial: readonly string[]
  savedNow: string | undefined
}) {
  const { t } = useTranslation()
  const categoryError = meta.errors?.[0]
  return (
    <fieldset
      className="rounded-lg border border-slate-200 p-5"
      aria-describedby={categoryError ? 'store-categories-error' : undefined}
    >
      <legend className="px-1 text-lg font-semibold text-slate-900">
        {t('adminStores.fields.categories')}
      </legend>
      <p className="text-sm text-slate-700">{t('adminStores.hints.categories')}</p>
      {savedNow ? (
        <p className="mt-1 text-xs text-slate-600">
          {t('adminSettings.savedNow', {
            value: savedNow
              .split(', ')
              .map((name) => t(`storeCategories.${name as 'household_and_misc'}`))
              .join(', '),
          })}
        </p>
      ) : null}
      <div className="mt-3 grid gap-2 sm:grid-cols-2">
        {STORE_CATEGORIES.map((category) => (
          <label key={category} className="flex min-h-11 items-center gap-3 text-slate-900">
            <input
              type="checkbox"
              name={meta.name}
              value={category}
              defaultChecked={initial.includes(category)}
              className="size-5"
            />
            {t(`storeCategories.${category}`)}
          </label>
        ))}
      </div>
      {categoryError ? (
        <p id="store-categories-error" className="mt-2 text-sm font-medium text-red-800">
          {errorTextIn(t, 'adminForm.errors', categoryError)}
        </p>
      ) : null}
    </fieldset>
  )
}

function ColorField({ meta, savedNow }: { meta: FieldMetadata<string>; savedNow?: string }) {
  const { t } = useTranslation()
  const errorKey = meta.errors?.[0]
  const hintId = `${meta.id}-hint`
  const errorId = `${meta.id}-error`
  return (
    <div className="space-y-1">
      <label htmlFor={meta.id} className="block text-sm font-medium text-slate-800">
        {t('adminStores.fields.logoColor')}
      </label>
      <input
        id={meta.id}
        name={meta.name}
        type="color"
        key={meta.key}
        defaultValue={meta.initialValue}
        aria-describedby={errorKey ? `${hintId} ${errorId}` : hintId}
        aria-invalid={errorKey ? true : undefined}
        className="block h-11 w-24 rounded-md border border-slate-400 bg-white"
      />
      <p id={hintId} className="text-xs text-slate-600">
        {[
          t('adminStores.hints.logoColor', { ratio: LOGO_MIN_CONTRAST }),
          savedNow ? t('adminSettings.savedNow', { value: savedNow }) : null,
        ]
          .filter(Boolean)
          .join(' ')}
      </p>
      {errorKey ? (
        <p id={errorId} className="text-sm font-medium text-red-800">
          {errorTextIn(t, 'adminForm.errors', errorKey, { ratio: LOGO_MIN_CONTRAST })}
        </p>
      ) : null}
    </div>
  )
}

function LogoForms({
  logoUrl,
  problem,
  busy,
}: {
  logoUrl: string | null
  problem: string | null
  busy: boolean
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="logo-heading" className="mt-10 rounded-lg border border-slate-200 p-5">
      <h2 id="logo-heading" className="text-lg font-semibold text-slate-900">
        {t('adminStores.logo.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {t(logoUrl ? 'adminStores.logo.current' : 'adminStores.logo.none')}
      </p>
      <FormAlert look="box" className="mt-3">
        {errorText(t, problem)}
      </FormAlert>
      <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="logo" />
        <div className="space-y-1">
          <label htmlFor="store-logo" className="block text-sm font-medium text-slate-800">
            {t('adminStores.logo.file')}
          </label>
          <input
            id="store-logo"
            name="logo"
            type="file"
            required
            accept={LOGO_INPUT_ACCEPT}
            aria-describedby="store-logo-hint"
            className="block min-h-11 text-sm"
          />
          <p id="store-logo-hint" className="text-xs text-slate-600">
            {t('adminStores.logo.hint')}
          </p>
        </div>
        <button
          type="submit"
          disabled={busy}
          className="min-h-11 rounded-md bg-red-800 px-4 font-semibold text-white disabled:opacity-60"
        >
          {t('adminStores.logo.upload')}
        </button>
      </Form>
      {logoUrl ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="removeLogo" />
          <button
            type="submit"
            disabled={busy}
            className="min-h-11 rounded-md border border-slate-400 bg-white px-4 font-medium text-slate-900 disabled:opacity-60"
          >
            {t('adminStores.logo.remove')}
          </button>
        </Form>
      ) : null}
    </section>
  )
}
