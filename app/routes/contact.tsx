import { getFormProps, useForm } from '@conform-to/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import { errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { messagingHandle } from '#app/lib/messaging-links.ts'
import { documentPage } from '#app/lib/page-kind.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { areas } from '#app/locales/areas.ts'
import { CONTACT_LIMITS, CONTACT_SUBJECTS, type ContactFormFields } from '#core/contact/contact-fields.ts'
import { ContactMessageSchema } from '#core/contact/contact-schemas.ts'
import type { Route } from './+types/contact.ts'

export const handle = { ...areas('public'), ...documentPage }

export function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get('sent') === '1' }
}

/** Validates with the form's own schema, stores the message, then redirects (post/redirect/get). */
export async function action({ request, context }: Route.ActionArgs) {
  const { contact, clientIp, language } = context.get(requestContext)
  const formData = await request.formData().catch(() => null)
  if (!formData)
    return data(
      { result: { status: 'error' as const, error: { '': ['contact.form.errors.unreadable'] } } },
      { status: 400 },
    )
  const submission = parseSubmission(formData, { schema: ContactMessageSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    // Stored with its forwarding job; a worker sends it (and retries) after the answer.
    await contact.submit(submission.value, { clientKey: `ip:${clientIp}`, language })
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirect('/contact?sent=1#contact-form')
}

// A refused post keeps its Retry-After on the document response.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

export default function ContactRoute() {
  const { t } = useTranslation()
  const { sent } = useLoaderData<typeof loader>()
  const root = useRootData()
  const channels = root
    ? [
        // WhatsApp first: it is where most orders start.
        ...(['whatsapp', 'instagram', 'facebook'] as const).map((network) => {
          const href = root.settings.messaging[network]
          return {
            key: network,
            label: t(`contact.channels.${network}`),
            hint: network === 'whatsapp' ? t('contact.channels.whatsappHint') : null,
            href,
            text: messagingHandle(network, href) ?? t(`contact.channels.${network}`),
            external: true,
            demo: root.demo.messaging,
          }
        }),
        {
          key: 'email',
          label: t('contact.channels.email'),
          hint: null,
          href: `mailto:${root.settings.company.email}`,
          text: root.settings.company.email,
          external: false,
          demo: root.demo.company,
        },
      ]
    : []
  return (
    <>
      <PageMeta title={t('contact.title')} description={t('contact.description')} />
      <PageIntro heading={t('contact.heading')} lead={t('contact.lead')} />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 lg:grid-cols-[3fr_2fr]">
        <section id="contact-form" aria-labelledby="contact-form-heading" className="scroll-mt-4">
          <h2 id="contact-form-heading" className="text-2xl font-bold text-slate-900">
            {t('contact.form.heading')}
          </h2>
          {sent ? <SentConfirmation /> : <ContactForm />}
        </section>
        <div className="space-y-10">
          <section aria-labelledby="channels-heading">
            <h2 id="channels-heading" className="text-xl font-bold text-slate-900">
              {t('contact.channels.heading')}
            </h2>
            <ul className="mt-4 space-y-3">
              {channels.map((channel) => (
                <li key={channel.key} className="rounded-lg border border-slate-200 p-4">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="text-sm font-medium text-slate-700">{channel.label}</h3>
                    {channel.demo ? <DemoLabel /> : null}
                  </div>
                  {channel.hint ? <p className="mt-1 text-sm text-slate-700">{channel.hint}</p> : null}
                  <a
                    href={channel.href}
                    className="inline-flex min-h-11 items-center break-all font-semibold text-red-800 underline underline-offset-4"
                    {...(channel.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  >
                    {channel.text}
                    {channel.external ? <span className="sr-only"> {t('contact.opensInNewTab')}</span> : null}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="staff-heading">
            <h2 id="staff-heading" className="text-xl font-bold text-slate-900">
              {t('contact.staff.heading')}
            </h2>
            <ul className="mt-4 space-y-3">
              {(['englishMarket', 'leader'] as const).map((member) => (
                <li key={member} className="rounded-lg border border-slate-200 p-4">
                  <h3 className="font-semibold text-slate-900">{t(`contact.staff.${member}.role`)}</h3>
                  <p className="mt-1 text-sm text-slate-700">{t(`contact.staff.${member}.text`)}</p>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </>
  )
}

function DemoLabel() {
  const { t } = useTranslation()
  return (
    <span className="inline-block rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">
      {t('site.demoData')}
    </span>
  )
}

/** Shown after the redirect; it takes the focus, so keyboard and screen-reader users land on it. */
function SentConfirmation() {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    ref.current?.focus()
  }, [])
  return (
    <div
      ref={ref}
      role="status"
      tabIndex={-1}
      data-autofocus
      className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 p-5 focus:outline-2 focus:outline-offset-2 focus:outline-emerald-700"
    >
      <p className="text-lg font-semibold text-emerald-950">{t('contact.form.sentTitle')}</p>
      <p className="mt-1 text-emerald-950">{t('contact.form.sentText')}</p>
      <Link
        to="/contact#contact-form"
        className="mt-3 inline-flex min-h-11 items-center font-semibold text-red-800 underline"
      >
        {t('contact.form.sendAnother')}
      </Link>
    </div>
  )
}

const LIMITS = {
  name: { max: CONTACT_LIMITS.name },
  email: { max: CONTACT_LIMITS.email },
  subject: {},
  message: { max: CONTACT_LIMITS.message },
} as const

function ContactForm() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const isSubmitting = navigation.state === 'submitting'
  // Validation runs on the server, with the same schema, for every submission (with JavaScript
  // the page does not reload). Validating in the browser too would ship zod (30 kB gzip) and its
  // eval probe, which the CSP blocks.
  const [form, fields] = useForm<ContactFormFields>({ id: 'contact', lastResult: actionData?.result })
  // Form-level errors are whole locale keys (from app/lib/http-errors.ts or this route).
  const formError = form.errors?.[0]

  return (
    // noValidate: the messages come from our schema, in the page language, with and without JS.
    <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-4">
      {formError ? (
        <FormAlert look="box">{t(formError as 'contact.form.errors.unreadable')}</FormAlert>
      ) : null}
      <ContactFields fields={fields} />
      {/* The bot-check: hidden from people and assistive technology, so only bots tick it. */}
      <div hidden>
        <label>
          <input type="checkbox" name="botcheck" tabIndex={-1} autoComplete="off" />
          {t('contact.form.botcheck')}
        </label>
      </div>
      <button
        type="submit"
        disabled={isSubmitting}
        data-pending-label={t('contact.form.sending')}
        className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-6 font-semibold text-white hover:bg-red-800 disabled:opacity-70"
      >
        {isSubmitting ? t('contact.form.sending') : t('contact.form.send')}
      </button>
    </Form>
  )
}

type ContactFieldset = ReturnType<typeof useForm<ContactFormFields>>[1]

/** The form's four fields, each with its message in the page language. */
function ContactFields({ fields }: { fields: ContactFieldset }) {
  const { t } = useTranslation()
  const errorOf = (name: keyof typeof LIMITS) => {
    const key = fields[name].errors?.[0]
    return errorTextIn(t, 'contact.form.errors', key, LIMITS[name])
  }
  return (
    <>
      <FormField id={fields.name.id} label={t('contact.form.name')} error={errorOf('name')}>
        {(control) => (
          <input
            {...control}
            key={fields.name.key}
            name={fields.name.name}
            defaultValue={fields.name.initialValue}
            type="text"
            autoComplete="name"
            required
            maxLength={CONTACT_LIMITS.name}
            className={inputClass}
          />
        )}
      </FormField>
      <FormField id={fields.email.id} label={t('contact.form.email')} error={errorOf('email')}>
        {(control) => (
          <input
            {...control}
            key={fields.email.key}
            name={fields.email.name}
            defaultValue={fields.email.initialValue}
            type="email"
            autoComplete="email"
            required
            maxLength={CONTACT_LIMITS.email}
            className={inputClass}
          />
        )}
      </FormField>
      <FormField id={fields.subject.id} label={t('contact.form.subject')} error={errorOf('subject')}>
        {(control) => (
          <select
            {...control}
            key={fields.subject.key}
            name={fields.subject.name}
            defaultValue={fields.subject.initialValue ?? 'general'}
            className={inputClass}
          >
            {CONTACT_SUBJECTS.map((subject) => (
              <option key={subject} value={subject}>
                {t(`contact.form.subjects.${subject}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        id={fields.message.id}
        label={t('contact.form.message')}
        hint={t('contact.form.messageHint', LIMITS.message)}
        error={errorOf('message')}
      >
        {(control) => (
          <textarea
            {...control}
            key={fields.message.key}
            name={fields.message.name}
            defaultValue={fields.message.initialValue}
            required
            maxLength={CONTACT_LIMITS.message}
            rows={6}
            className={`${inputClass} py-2`}
          />
        )}
      </FormField>
    </>
  )
}
