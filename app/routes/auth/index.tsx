import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import { AuthField } from '#app/components/auth-field.tsx'
import { FailureAlert, type FailureReason } from '#app/components/failure-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { flashCookie } from '#app/lib/cookies.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import {
  accountPageHeaders,
  authRequest,
  getSessionUser,
  redirectWithCookies,
} from '#app/lib/session.server.ts'
import { SignInSchema, SignUpSchema } from '#core/accounts/account-schemas.ts'
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

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  // The verification link comes back here (better-auth's callbackURL), with ?error=… when the
  // link was expired, forged or for an unknown account.
  const verification = url.searchParams.get('verified') === 'true'
  if (verification && !url.searchParams.has('error')) throw redirect('/email-verification')
  if (await getSessionUser(context, request)) {
    // A Google sign-in comes back here signed in (its callbackURL): greet, then go on.
    if (url.searchParams.get('via') === 'google') {
      throw redirect(safeRedirect(url.searchParams.get('redirectTo')), {
        headers: { 'Set-Cookie': await flashCookie(context, 'signedIn') },
      })
    }
    throw redirect('/')
  }
  const { auth } = context.get(requestContext)
  const googleError = url.searchParams.get('error')
  return {
    mode: url.searchParams.get('mode') === 'signup' ? ('signup' as const) : ('signin' as const),
    sent: url.searchParams.get('sent') === '1',
    reset:
      url.searchParams.get('reset') === 'done'
        ? ('done' as const)
        : url.searchParams.get('reset') === 'invalid'
          ? ('invalid' as const)
          : null,
    invalidVerification: verification,
    redirectTo: safeRedirect(url.searchParams.get('redirectTo')),
    googleEnabled: Boolean(auth.options.socialProviders && 'google' in auth.options.socialProviders),
    googleFailure: googleError === null || verification ? null : googleFailureFor(googleError),
  }
}

type FailureKey = FailureReason

function failureFor(status: number, code: unknown): FailureKey {
  if (status === 429) return 'tooMany'
  if (status === 403 && code === 'EMAIL_NOT_VERIFIED') return 'notVerified'
  if (status === 401 || status === 400) return 'invalidCredentials'
  return 'unexpected'
}

export async function action({ request, context }: Route.ActionArgs) {
  const { language } = context.get(requestContext)
  const form = await request.formData()
  const intent = form.get('intent')

  if (intent === 'google') {
    // Success comes back to the loader above, failure to this page with `?error=`; both keep
    // where the visitor was going.
    const redirectTo = safeRedirect(form.get('redirectTo'))
    const keep = redirectTo === '/' ? '' : `redirectTo=${encodeURIComponent(redirectTo)}`
    const result = await authRequest(context, request, 'POST', '/sign-in/social', {
      provider: 'google',
      callbackURL: `/auth?via=google${keep ? `&${keep}` : ''}`,
      errorCallbackURL: `/auth${keep ? `?${keep}` : ''}`,
    })
    const url = typeof result.data?.url === 'string' ? result.data.url : null
    if (!url) {
      context.get(requestContext).log.warn({ status: result.status }, 'Google sign-in could not start')
      const failure: FailureKey = result.status === 429 ? 'tooMany' : 'unexpected'
      return data({ intent, result: null, failure }, { status: result.status === 429 ? 429 : 502 })
    }
    return redirectWithCookies(url, result.setCookies)
  }

  if (intent === 'signup') {
    const submission = parseWithZod(form, { schema: SignUpSchema })
    if (submission.status !== 'success')
      return data({ intent, result: submission.reply(), failure: null }, { status: 400 })
    const { fullName, email, password } = submission.value
    const result = await authRequest(context, request, 'POST', '/sign-up/email', {
      name: fullName,
      email,
      password,
      language,
      callbackURL: '/auth?verified=true',
    })
    // An address already registered answers the same as a new one: no account enumeration.
    if (result.status === 200 || result.status === 422) return redirect('/auth?mode=signup&sent=1')
    if (result.status === 400 && result.data?.code === 'PASSWORD_TOO_COMMON') {
      const reply = submission.reply({
        fieldErrors: { password: ['passwordTooCommon'] },
        hideFields: ['password', 'confirmPassword'],
      })
      return data({ intent, result: reply, failure: null }, { status: 400 })
    }
    const failure: FailureKey = result.status === 429 ? 'tooMany' : 'unexpected'
    return data(
      { intent, result: submission.reply({ formErrors: [failure] }), failure },
      { status: result.status >= 500 ? 502 : result.status },
    )
  }

  const submission = parseWithZod(form, { schema: SignInSchema })
  if (submission.status !== 'success')
    return data({ intent: 'signin', result: submission.reply(), failure: null }, { status: 400 })
  const result = await authRequest(context, request, 'POST', '/sign-in/email', submission.value)
  if (result.status === 200) {
    const redirectTo = safeRedirect(form.get('redirectTo'))
    // The password was right and the account has a second factor: no session yet, ask for it.
    if (result.data?.mfaRequired === true) {
      return redirectWithCookies(`/auth/mfa?redirectTo=${encodeURIComponent(redirectTo)}`, result.setCookies)
    }
    return redirectWithCookies(redirectTo, result.setCookies, await flashCookie(context, 'signedIn'))
  }
  const failure = failureFor(result.status, result.data?.code)
  return data(
    {
      intent: 'signin',
      result: submission.reply({ formErrors: [failure], hideFields: ['password'] }),
      failure,
    },
    { status: result.status === 429 ? 429 : 401 },
  )
}

export const headers: Route.HeadersFunction = accountPageHeaders

export default function AuthRoute() {
  const { t } = useTranslation()
  const { mode, sent, reset, invalidVerification, redirectTo, googleEnabled, googleFailure } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  // The provider sent the visitor back with an error, or the sign-in could not even start.
  const googleFailed: GoogleFailureKey | 'tooMany' | null =
    actionData?.intent === 'google'
      ? actionData.failure === 'tooMany'
        ? 'tooMany'
        : 'googleFailed'
      : googleFailure
  const heading = mode === 'signup' ? t('auth.signUpHeading') : t('auth.signInHeading')
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <PageMeta title={t('auth.title')} description={t('auth.description')} />
      {sent ? (
        <div role="status" className="space-y-4 text-center">
          <h1 className="text-2xl font-bold text-slate-900">{t('auth.checkEmailHeading')}</h1>
          <p className="text-slate-700">{t('auth.checkEmailText')}</p>
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
              <FailureAlert titleKey="signInFailed" reason={googleFailed} />
            </div>
          ) : null}
          {reset === 'invalid' ? (
            <div role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
              <p className="font-semibold">{t('auth.invalidResetTitle')}</p>
              <p className="text-sm">{t('auth.invalidResetText')}</p>
            </div>
          ) : null}
          {invalidVerification ? (
            <div role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
              <p className="font-semibold">{t('auth.invalidVerificationTitle')}</p>
              <p className="text-sm">{t('auth.invalidVerificationText')}</p>
            </div>
          ) : null}
          {reset === 'done' ? (
            <div
              role="status"
              className="mt-4 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-emerald-950"
            >
              <p className="font-semibold">{t('auth.passwordUpdatedTitle')}</p>
              <p className="text-sm">{t('auth.passwordUpdatedText')}</p>
            </div>
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

function useAuthForm(intent: 'signin' | 'signup') {
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<Record<string, string>>({
    id: intent,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
  })
  return { form, fields, failure: actionData?.intent === intent ? actionData.failure : null }
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
      <FailureAlert titleKey="signInFailed" reason={failure} />
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

function SignUpForm() {
  const { t } = useTranslation()
  const { form, fields, failure } = useAuthForm('signup')
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-4">
      <FailureAlert titleKey="signUpFailed" reason={failure} />
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
