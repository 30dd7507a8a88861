import { getFormProps, useForm } from '@conform-to/react'
import { Trans, useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import { AuthField } from '#app/components/auth-field.tsx'
import { FailureAlert, PasswordRuleToasts } from '#app/components/failure-alert.tsx'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import {
  resendVerificationEmail,
  signInWithPassword,
  signUpWithPassword,
  startGoogleSignIn,
} from '#app/lib/auth-client.server.ts'
import { sentToCookie } from '#app/lib/cookies.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { accountPageHeaders, getSessionUser, redirectWithCookies } from '#app/lib/session.server.ts'
import { areas } from '#app/locales/areas.ts'
import { ForgotPasswordSchema, SignInSchema, SignUpSchema } from '#core/accounts/account-schemas.ts'
import { VERIFICATION_CALLBACK_PATH } from '#core/accounts/verification-link.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Route } from './+types/index.ts'

/** Why a Google sign-in came back without a session (better-auth's `?error=` codes), as locale keys. */
type GoogleFailureKey = 'googleCancelled' | 'googleNotLinked' | 'googleEmailUnconfirmed' | 'googleFailed'

function googleFailureFor(code: string): GoogleFailureKey {
  if (code === 'access_denied') return 'googleCancelled'
  if (code === 'account_not_linked') return 'googleNotLinked'
  if (code === 'unable_to_get_user_info' || code === 'email_not_found' || code === 'email_not_verified')
    return 'googleEmailUnconfirmed'
  return 'googleFailed'
}

export const handle = areas('account')

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  // The verification link comes back here (better-auth's callbackURL), with ?error=… when the
  // link was expired, forged or for an unknown account.
  const verification = url.searchParams.get('verified') === 'true'
  if (verification && !url.searchParams.has('error')) throw redirect('/email-verification')
  if (await getSessionUser(context, request)) {
    // A Google sign-in comes back here signed in (its callbackURL): greet, then go on.
    if (url.searchParams.get('via') === 'google') {
      throw await redirectWithNotice(context, safeRedirect(url.searchParams.get('redirectTo')), 'signedIn')
    }
    throw redirect('/')
  }
  const googleError = url.searchParams.get('error')
  const sent = url.searchParams.get('sent') === '1'
  const sentTo: unknown = sent ? await sentToCookie(context).parse(request.headers.get('Cookie')) : null
  return {
    mode: url.searchParams.get('mode') === 'signup' ? ('signup' as const) : ('signin' as const),
    sent,
    // The address the link went to (typed by this visitor), when the cookie is still there.
    sentTo:
      typeof sentTo === 'string' && ForgotPasswordSchema.safeParse({ email: sentTo }).success ? sentTo : null,
    reset:
      url.searchParams.get('reset') === 'done'
        ? ('done' as const)
        : url.searchParams.get('reset') === 'invalid'
          ? ('invalid' as const)
          : null,
    invalidVerification: verification,
    redirectTo: safeRedirect(url.searchParams.get('redirectTo')),
    googleEnabled: googleIsEnabled(context),
    googleFailure: googleError === null || verification ? null : googleFailureFor(googleError),
  }
}

function googleIsEnabled(context: Route.LoaderArgs['context']) {
  const { auth } = context.get(requestContext)
  return Boolean(auth.options.socialProviders && 'google' in auth.options.socialProviders)
}

export async function action({ request, context }: Route.ActionArgs) {
  const { language, log } = context.get(requestContext)
  const caller = { context, request }
  const form = await request.formData()
  const intent = form.get('intent')

  if (intent === 'google') {
    if (!googleIsEnabled(context)) {
      const unavailable = new AppError('not_found', 'Google sign-in is not configured', {
        reason: 'googleUnavailable',
      })
      return formFailure(unavailable, { reply: () => null }, { intent })
    }
    // Success comes back to the loader above, failure to this page with `?error=`; both keep
    // where the visitor was going.
    const redirectTo = safeRedirect(form.get('redirectTo'))
    const keep = redirectTo === '/' ? '' : `redirectTo=${encodeURIComponent(redirectTo)}`
    try {
      const { url, setCookies } = await startGoogleSignIn(caller, {
        callbackURL: `/auth?via=google${keep ? `&${keep}` : ''}`,
        errorCallbackURL: `/auth${keep ? `?${keep}` : ''}`,
      })
      return redirectWithCookies(url, setCookies)
    } catch (error) {
      log.warn({ err: error }, 'Google sign-in could not start')
      return formFailure(error, { reply: () => null }, { intent })
    }
  }

  if (intent === 'signup') {
    const submission = parseSubmission(form, { schema: SignUpSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { fullName, email, password } = submission.value
    try {
      await signUpWithPassword(caller, {
        name: fullName,
        email,
        password,
        language,
        callbackURL: VERIFICATION_CALLBACK_PATH,
      })
    } catch (error) {
      return formFailure(error, withHiddenPasswords(submission, ['password', 'confirmPassword']), { intent })
    }
    return sentScreen(context, email)
  }

  if (intent === 'resend') {
    // The same answer whether or not the account exists; better-auth's rate limit holds.
    const submission = parseSubmission(form, { schema: ForgotPasswordSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await resendVerificationEmail(caller, submission.value.email)
    } catch (error) {
      return formFailure(error, submission, { intent })
    }
    return sentScreen(context, submission.value.email)
  }

  const submission = parseSubmission(form, { schema: SignInSchema })
  if (submission.status !== 'success')
    return data({ intent: 'signin', result: submission.reply() }, { status: 400 })
  try {
    const { mfaRequired, setCookies } = await signInWithPassword(caller, submission.value)
    const redirectTo = safeRedirect(form.get('redirectTo'))
    // The password was right and the account has a second factor: no session yet, ask for it.
    if (mfaRequired) {
      return redirectWithCookies(`/auth/mfa?redirectTo=${encodeURIComponent(redirectTo)}`, setCookies)
    }
    return redirectWithNotice(context, redirectTo, 'signedIn', { setCookies })
  } catch (error) {
    return formFailure(error, withHiddenPasswords(submission, ['password']), { intent: 'signin' as const })
  }
}

/** The check-your-email screen, its toast, and the address the link went to. */
async function sentScreen(context: Route.ActionArgs['context'], email: string) {
  // `?sent=1` is the check-your-email screen (a state of this page), not a notice.
  return redirectWithNotice(context, '/auth?mode=signup&sent=1', 'verificationSent', {
    setCookies: [await sentToCookie(context).serialize(email)],
  })
}

/** A Conform submission whose replies never send the typed passwords back to the page. */
function withHiddenPasswords<Reply>(
  submission: { reply: (options?: { hideFields?: string[] } & object) => Reply },
  hideFields: string[],
) {
  return { reply: (options?: object) => submission.reply({ ...options, hideFields }) }
}

export const headers: Route.HeadersFunction = accountPageHeaders

export default function AuthRoute() {
  const { t } = useTranslation()
  const { mode, sent, sentTo, reset, invalidVerification, redirectTo, googleEnabled, googleFailure } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  // The provider sent the visitor back with an error, or the sign-in could not even start.
  const googleFailed =
    actionData?.intent === 'google' && 'error' in actionData
      ? actionData.error.code === 'upstream_failed'
        ? 'auth.errors.googleFailed'
        : actionData.error.messageKey
      : googleFailure && `auth.errors.${googleFailure}`
  const heading = mode === 'signup' ? t('auth.signUpHeading') : t('auth.signInHeading')
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <PageMeta title={t('auth.title')} description={t('auth.description')} />
      {sent ? (
        <div className="space-y-4 text-center">
          <h1 className="text-2xl font-bold text-slate-900">{t('auth.checkEmailHeading')}</h1>
          <p className="text-slate-700">
            {sentTo ? (
              <Trans
                i18nKey="auth.checkEmailSentTo"
                values={{ email: sentTo }}
                components={{ address: <strong className="break-all text-slate-900" /> }}
              />
            ) : (
              t('auth.checkEmailText')
            )}
          </p>
          <ResendForm sentTo={sentTo} />
          <Link
            to="/auth"
            className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-5 font-semibold"
          >
            {t('auth.back')}
          </Link>
        </div>
      ) : (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{heading}</h1>
          {googleFailed ? (
            <div className="mt-4">
              <FailureAlert titleKey="signInFailed" messageKey={googleFailed} />
            </div>
          ) : null}
          {reset === 'invalid' ? (
            <FormAlert look="box" title={t('auth.invalidResetTitle')} className="mt-4">
              {t('auth.invalidResetText')}
            </FormAlert>
          ) : null}
          {invalidVerification ? (
            <FormAlert look="box" title={t('auth.invalidVerificationTitle')} className="mt-4">
              {t('auth.invalidVerificationText')}
            </FormAlert>
          ) : null}
          {mode === 'signup' ? <SignUpForm /> : <SignInForm redirectTo={redirectTo} />}
          {googleEnabled ? (
            <Form method="post" className="mt-4">
              <p className="my-3 text-center text-sm text-slate-600">{t('auth.or')}</p>
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button
                type="submit"
                name="intent"
                value="google"
                className="min-h-11 w-full rounded-md border border-slate-400 bg-white font-semibold text-slate-900 hover:bg-slate-50"
              >
                {t('auth.google')}
              </button>
            </Form>
          ) : null}
          <p className="mt-6 text-center text-sm">
            <Link
              to={mode === 'signup' ? '/auth' : '/auth?mode=signup'}
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
            >
              {mode === 'signup' ? t('auth.toSignIn') : t('auth.toSignUp')}
            </Link>
          </p>
        </>
      )}
    </section>
  )
}

function useAuthForm(intent: 'signin' | 'signup' | 'resend') {
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<Record<string, string>>({
    id: intent,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
  })
  const failure = actionData?.intent === intent && 'error' in actionData ? actionData.error.messageKey : null
  return { form, fields, failure }
}

function SubmitButton({ label }: { label: string }) {
  const navigation = useNavigation()
  return (
    <button
      type="submit"
      disabled={navigation.state === 'submitting'}
      className="min-h-11 w-full rounded-md bg-red-700 font-semibold text-white hover:bg-red-800 disabled:opacity-70"
    >
      {label}
    </button>
  )
}

function SignInForm({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation()
  const { form, fields, failure } = useAuthForm('signin')
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-4">
      <FailureAlert titleKey="signInFailed" messageKey={failure} />
      <input type="hidden" name="intent" value="signin" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <AuthField
        field={fields.email ?? { id: 'signin-email', name: 'email' }}
        label={t('auth.email')}
        type="email"
        autoComplete="email"
      />
      <AuthField
        field={fields.password ?? { id: 'signin-password', name: 'password' }}
        label={t('auth.password')}
        type="password"
        autoComplete="current-password"
      />
      <SubmitButton label={t('auth.signIn')} />
      <p className="text-center text-sm">
        <Link to="/forgot-password" className="inline-flex min-h-11 items-center text-red-800 underline">
          {t('auth.forgot')}
        </Link>
      </p>
    </Form>
  )
}

/** "Send the link again", to the address it went to (asked for when the cookie is gone). */
function ResendForm({ sentTo }: { sentTo: string | null }) {
  const { t } = useTranslation()
  const { form, fields, failure } = useAuthForm('resend')
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-3 text-left">
      <p className="text-center text-sm text-slate-700">{t('auth.checkEmailHelp')}</p>
      <FailureAlert titleKey="resendFailed" messageKey={failure} />
      <input type="hidden" name="intent" value="resend" />
      {sentTo ? (
        <input type="hidden" name="email" value={sentTo} />
      ) : (
        <AuthField
          field={fields.email ?? { id: 'resend-email', name: 'email' }}
          label={t('auth.resendEmail')}
          type="email"
          autoComplete="email"
        />
      )}
      <button
        type="submit"
        className="min-h-11 w-full rounded-md border border-slate-400 bg-white font-semibold text-slate-900 hover:bg-slate-50"
      >
        {t('auth.resend')}
      </button>
    </Form>
  )
}

function SignUpForm() {
  const { t } = useTranslation()
  const { form, fields, failure } = useAuthForm('signup')
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-4">
      <FailureAlert titleKey="signUpFailed" messageKey={failure} />
      <PasswordRuleToasts
        passwordErrors={fields.password?.errors}
        confirmErrors={fields.confirmPassword?.errors}
      />
      <input type="hidden" name="intent" value="signup" />
      <AuthField
        field={fields.fullName ?? { id: 'signup-name', name: 'fullName' }}
        label={t('auth.fullName')}
        type="text"
        autoComplete="name"
      />
      <AuthField
        field={fields.email ?? { id: 'signup-email', name: 'email' }}
        label={t('auth.email')}
        type="email"
        autoComplete="email"
      />
      <AuthField
        field={fields.password ?? { id: 'signup-password', name: 'password' }}
        label={t('auth.password')}
        type="password"
        autoComplete="new-password"
        hint={t('auth.passwordHint')}
      />
      <AuthField
        field={fields.confirmPassword ?? { id: 'signup-confirm', name: 'confirmPassword' }}
        label={t('auth.confirmPassword')}
        type="password"
        autoComplete="new-password"
      />
      <SubmitButton label={t('auth.signUp')} />
    </Form>
  )
}
