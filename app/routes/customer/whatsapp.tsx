import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { HTTP_STATUS, isAppError } from '#core/shared/errors.ts'
import {
  confirmWhatsAppCode,
  getWhatsAppState,
  saveWhatsAppPreferences,
  startWhatsAppOptIn,
  stopWhatsApp,
} from '#core/whatsapp/opt-in.ts'
import { WHATSAPP_CATEGORY_NAMES, type WhatsAppCategory } from '#core/whatsapp/templates.ts'
import type { Route } from './+types/whatsapp.ts'

// WhatsApp updates (issue 34, docs/decisions/049): give a number, confirm it with the code sent
// there, choose which updates go to WhatsApp, stop. Only when WhatsApp is configured: otherwise
// this page is a 404 and the notifications page shows no link to it. Each form is a plain post
// with an `intent`; a success comes back here with a notice.

const PATH = '/user-dashboard/notifications/whatsapp'

/** A 404 when the environment configures no WhatsApp. */
function whatsappOf(context: Route.LoaderArgs['context']) {
  const client = context.get(requestContext).whatsapp
  if (!client) throw data(null, { status: 404 })
  return client
}

export async function loader({ context }: Route.LoaderArgs) {
  whatsappOf(context)
  const state = await getWhatsAppState(getServiceContext(context))
  return { state, categories: WHATSAPP_CATEGORY_NAMES }
}

type FormName = 'start' | 'confirm' | 'preferences' | 'stop'
const REASONS = new Set([
  'phoneRequired',
  'phoneInvalid',
  'notOnWhatsApp',
  'codeRequired',
  'codeInvalid',
  'codeWrong',
  'codeExpired',
  'categoryInvalid',
  'whatsappTooManyCodes',
  'whatsappDown',
  'whatsappNotActive',
])

export async function action({ request, context }: Route.ActionArgs) {
  const client = whatsappOf(context)
  const service = getServiceContext(context)
  const { language } = context.get(requestContext)
  const formData = await request.formData().catch(() => new FormData())
  const intent = formData.get('intent')
  const text = (name: string) => {
    const value = formData.get(name)
    return typeof value === 'string' ? value : ''
  }
  const form: FormName =
    intent === 'confirm' || intent === 'preferences' || intent === 'stop' ? intent : 'start'
  try {
    if (intent === 'start') {
      await startWhatsAppOptIn(service, client, { phone: text('phone'), language })
      return redirectWithNotice(context, PATH, 'whatsappCodeSent')
    }
    if (intent === 'confirm') {
      await confirmWhatsAppCode(service, client, { code: text('code') })
      return redirectWithNotice(context, PATH, 'whatsappOn')
    }
    if (intent === 'preferences') {
      const categories = formData.getAll('categories').map(String) as WhatsAppCategory[]
      await saveWhatsAppPreferences(service, { categories })
      return redirectWithNotice(context, PATH, 'whatsappSaved')
    }
    if (intent === 'stop') {
      await stopWhatsApp(service)
      return redirectWithNotice(context, PATH, 'whatsappStopped')
    }
    return data({ form, reason: 'unknown', phone: '' }, { status: 400 })
  } catch (error) {
    if (!isAppError(error) || error.code === 'unauthorized') throw error
    const reason =
      error.details.reason && REASONS.has(error.details.reason) ? error.details.reason : 'unknown'
    const headers: Record<string, string> = {}
    if (error.details.retryAfterSeconds) headers['Retry-After'] = String(error.details.retryAfterSeconds)
    return data(
      { form, reason, phone: form === 'start' ? text('phone').slice(0, 40) : '' },
      { status: HTTP_STATUS[error.code], headers },
    )
  }
}

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return { 'Cache-Control': 'private, no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}

const buttonClass = 'min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800'
const secondaryClass =
  'min-h-11 rounded-md border border-slate-400 bg-white px-5 font-semibold text-slate-900 hover:bg-slate-50'

export default function WhatsAppRoute() {
  const { t } = useTranslation()
  const { state, categories } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const errorFor = (form: FormName) =>
    answer && answer.form === form ? t(`whatsapp.errors.${answer.reason}` as 'whatsapp.errors.unknown') : null
  const status = state?.status ?? null
  const phone = state?.phone ?? ''
  return (
    <div className="space-y-8">
      <PageMeta title={t('whatsapp.title')} description={t('whatsapp.lead')} />
      <p>
        <Link to="/user-dashboard/notifications" className="font-semibold text-red-800 underline">
          {t('whatsapp.back')}
        </Link>
      </p>
      <header>
        <h1 className="text-3xl font-bold text-slate-900">{t('whatsapp.title')}</h1>
        <p className="mt-2 max-w-3xl text-slate-700">{t('whatsapp.lead')}</p>
      </header>
      <p className="max-w-3xl font-medium text-slate-900" data-testid="whatsapp-status">
        {status === 'active'
          ? t('whatsapp.statusActive', { phone })
          : status === 'pending'
            ? t('whatsapp.statusPending', { phone })
            : status === 'stopped'
              ? t('whatsapp.statusStopped', { phone })
              : t('whatsapp.statusNone')}
      </p>

      {status === 'pending' ? (
        <Form method="post" className="max-w-xl space-y-5" aria-labelledby="whatsapp-confirm">
          <h2 id="whatsapp-confirm" className="sr-only">
            {t('whatsapp.confirm')}
          </h2>
          <input type="hidden" name="intent" value="confirm" />
          <FormField
            id="whatsapp-code"
            label={t('whatsapp.code')}
            hint={t('whatsapp.codeHint')}
            error={errorFor('confirm')}
          >
            {(control) => (
              <input
                {...control}
                name="code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
                className={inputClass}
              />
            )}
          </FormField>
          <button type="submit" className={buttonClass}>
            {t('whatsapp.confirm')}
          </button>
        </Form>
      ) : null}

      {status !== 'active' ? (
        <Form method="post" className="max-w-xl space-y-5" aria-labelledby="whatsapp-start">
          <h2 id="whatsapp-start" className="text-xl font-bold text-slate-900">
            {status === 'pending' ? t('whatsapp.newCode') : t('whatsapp.sendCode')}
          </h2>
          <input type="hidden" name="intent" value="start" />
          <FormField
            id="whatsapp-phone"
            label={t('whatsapp.phone')}
            hint={t('whatsapp.phoneHint')}
            error={errorFor('start')}
          >
            {(control) => (
              <input
                {...control}
                name="phone"
                type="tel"
                autoComplete="tel"
                maxLength={40}
                required
                defaultValue={answer?.form === 'start' ? answer.phone : phone}
                className={inputClass}
              />
            )}
          </FormField>
          <button type="submit" className={status === 'pending' ? secondaryClass : buttonClass}>
            {status === 'pending' ? t('whatsapp.newCode') : t('whatsapp.sendCode')}
          </button>
        </Form>
      ) : (
        <>
          <Form method="post" className="max-w-xl space-y-4">
            <input type="hidden" name="intent" value="preferences" />
            <fieldset className="space-y-3">
              <legend className="text-xl font-bold text-slate-900">{t('whatsapp.preferencesHeading')}</legend>
              <FormAlert>{errorFor('preferences')}</FormAlert>
              {categories.map((category) => (
                <label key={category} className="flex min-h-11 items-center gap-3 text-slate-900">
                  <input
                    type="checkbox"
                    name="categories"
                    value={category}
                    defaultChecked={state?.categories.includes(category)}
                    className="size-5"
                  />
                  {t(`whatsapp.categories.${category}`)}
                </label>
              ))}
            </fieldset>
            <button type="submit" className={buttonClass}>
              {t('whatsapp.save')}
            </button>
          </Form>
          <Form method="post" className="max-w-xl space-y-2">
            <input type="hidden" name="intent" value="stop" />
            <FormAlert>{errorFor('stop')}</FormAlert>
            <button type="submit" className={secondaryClass} aria-describedby="whatsapp-stop-hint">
              {t('whatsapp.stop')}
            </button>
            <p id="whatsapp-stop-hint" className="text-sm text-slate-700">
              {t('whatsapp.stopHint')}
            </p>
          </Form>
          <details className="max-w-xl">
            <summary className="min-h-11 cursor-pointer py-2 font-semibold text-slate-900">
              {t('whatsapp.changeNumber')}
            </summary>
            <Form method="post" className="mt-3 space-y-5">
              <input type="hidden" name="intent" value="start" />
              <FormField
                id="whatsapp-phone"
                label={t('whatsapp.phone')}
                hint={t('whatsapp.phoneHint')}
                error={errorFor('start')}
              >
                {(control) => (
                  <input
                    {...control}
                    name="phone"
                    type="tel"
                    autoComplete="tel"
                    maxLength={40}
                    required
                    defaultValue={answer?.form === 'start' ? answer.phone : ''}
                    className={inputClass}
                  />
                )}
              </FormField>
              <button type="submit" className={secondaryClass}>
                {t('whatsapp.sendCode')}
              </button>
            </Form>
          </details>
        </>
      )}
    </div>
  )
}
