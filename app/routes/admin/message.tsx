import { getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { subjectLabel } from '#app/lib/contact-subject.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { japanTimeFormatter } from '#app/lib/japan-time.ts'
import enAdmin from '#app/locales/en/admin.ts'
import esAdmin from '#app/locales/es/admin.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { HandleMessageSchema, MessageIdSchema } from '#core/contact/inbox-schemas.ts'
import { getContactMessage, setContactMessageHandled } from '#core/contact/inbox-service.ts'
import { parseLanguage } from '#core/preferences/preferences.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Route } from './+types/message.ts'

// One contact message, as text: who, when (Japan time), what, its forwarding; mark it handled or
// reopen it (recorded with who and when); reply by e-mail (a mailto: link).

function messageId(params: { id?: string }): string {
  const parsed = MessageIdSchema.safeParse(params.id)
  if (!parsed.success)
    throw new AppError('not_found', `No contact message ${params.id}`, { reason: 'messageNotFound' })
  return parsed.data
}

// The reply's subject is in the language the customer wrote in.
const REPLY_SUBJECT = { en: enAdmin.inbox.replySubject, es: esAdmin.inbox.replySubject }

export async function loader({ params, context }: Route.LoaderArgs) {
  const { language, settings } = context.get(requestContext)
  const services = getServiceContext(context)
  const message = await Promise.resolve().then(() => getContactMessage(services, messageId(params)))

  const format = japanTimeFormatter(language)
  const shop = (await settings.get()).company.name
  const replyLanguage = parseLanguage(message.language) ?? 'es'
  const replySubject = REPLY_SUBJECT[replyLanguage].replace('{{shop}}', shop)
  return {
    message: {
      id: message.id,
      name: message.name,
      email: message.email,
      subject: message.subject,
      text: message.message,
      language: parseLanguage(message.language),
      received: format(message.receivedAt),
      isSpam: message.isSpam,
      forwardStatus: message.forwardStatus,
      forwardAttempts: message.forwardAttempts,
      forwarded: message.forwardedAt ? format(message.forwardedAt) : null,
      lastError: message.lastError,
      handled: message.handledAt ? format(message.handledAt) : null,
      handledBy: message.handledBy?.name ?? null,
    },
    // RFC 6068: the address and the subject percent-encoded (the @ may stay as it is).
    replyHref: `mailto:${encodeURIComponent(message.email).replace('%40', '@')}?subject=${encodeURIComponent(replySubject)}`,
  }
}

/** Mark handled or reopen, then back to the message (post/redirect/get). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = getServiceContext(context)
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: HandleMessageSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const id = messageId(params)
    await setContactMessageHandled(services, id, submission.value)
    return redirect(`/admin-dashboard/messages/${id}`)
  } catch (error) {
    return formFailure(error, submission)
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const FORWARD_STATES = ['not_configured', 'skipped', 'pending', 'sent', 'failed'] as const

export default function MessageRoute() {
  const { t } = useTranslation()
  const { message, replyHref } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseSubmission(formData, { schema: HandleMessageSchema }),
  })
  const forwardState = FORWARD_STATES.find((state) => state === message.forwardStatus)
  const formError = form.errors?.[0]
  return (
    <section className="max-w-3xl">
      <PageMeta title={t('inbox.messageTitle', { name: message.name })} description={t('inbox.title')} />
      <p>
        <Link
          to="/admin-dashboard/messages"
          className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
        >
          {t('inbox.backToList')}
        </Link>
      </p>
      <h1 className="break-words text-3xl font-bold text-slate-900">
        {t('inbox.messageTitle', { name: message.name })}
      </h1>
      <h2 className="sr-only">{t('inbox.details')}</h2>
      <dl className="mt-6 grid gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-slate-900">{t('inbox.from')}</dt>
        <dd className="break-words text-slate-700">{message.name}</dd>
        <dt className="font-semibold text-slate-900">{t('inbox.email')}</dt>
        <dd className="break-all text-slate-700">{message.email}</dd>
        <dt className="font-semibold text-slate-900">{t('inbox.subject')}</dt>
        <dd className="text-slate-700">{subjectLabel(t, message.subject)}</dd>
        <dt className="font-semibold text-slate-900">{t('inbox.receivedLabel')}</dt>
        <dd className="text-slate-700">{t('inbox.japanTime', { date: message.received })}</dd>
        <dt className="font-semibold text-slate-900">{t('inbox.languageLabel')}</dt>
        <dd className="text-slate-700">
          {message.language ? t(`inbox.languages.${message.language}`) : '—'}
        </dd>
        <dt className="font-semibold text-slate-900">{t('inbox.forwardingLabel')}</dt>
        <dd className="text-slate-700">
          {forwardState
            ? t(`inbox.forwarding.${forwardState}`, {
                date: message.forwarded ?? '',
                count: message.forwardAttempts,
              })
            : message.forwardStatus}
          {message.lastError && forwardState !== 'sent' ? (
            <span className="mt-1 block break-words text-sm">
              {t('inbox.lastError', { error: message.lastError })}
            </span>
          ) : null}
        </dd>
        <dt className="font-semibold text-slate-900">{t('inbox.statusLabel')}</dt>
        <dd className="text-slate-700" data-testid="message-status">
          {message.handled
            ? message.handledBy
              ? t('inbox.statusHandled', { date: message.handled, name: message.handledBy })
              : t('inbox.statusHandledByUnknown', { date: message.handled })
            : t('inbox.statusOpen')}
        </dd>
      </dl>
      <h2 className="mt-8 text-xl font-bold text-slate-900">{t('inbox.messageHeading')}</h2>
      {/* As text: React escapes it; line breaks kept, long words wrapped. */}
      <p className="mt-3 whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-4 text-slate-900">
        {message.text}
      </p>
      <div className="mt-8 flex flex-wrap items-start gap-4">
        <div>
          <a
            href={replyHref}
            aria-describedby="reply-hint"
            className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900"
          >
            {t('inbox.reply')}
          </a>
          <p id="reply-hint" className="mt-1 max-w-xs text-sm text-slate-700">
            {t('inbox.replyHint')}
          </p>
        </div>
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={message.handled ? 'reopen' : 'handle'} />
          <button
            type="submit"
            disabled={navigation.state === 'submitting'}
            className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-5 font-semibold text-slate-900 hover:bg-slate-100 disabled:opacity-60"
          >
            {message.handled ? t('inbox.reopen') : t('inbox.markHandled')}
          </button>
        </Form>
      </div>
      {formError ? (
        <FormAlert look="box" title={t('inbox.actionFailed')} className="mt-4">
          {t(formError as 'inbox.actionFailed')}
        </FormAlert>
      ) : null}
    </section>
  )
}
