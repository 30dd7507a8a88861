import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { getSessionUser } from '#app/lib/session.server.ts'
import { areas } from '#app/locales/areas.ts'
import type { Route } from './+types/email-verification.ts'

// A link opened for the first time signs its holder in; opened again (the address is already
// verified) it signs no one in: the page still continues to the home page, and says where to
// sign in.

export const handle = areas('account')

export async function loader({ request, context }: Route.LoaderArgs) {
  return { signedIn: (await getSessionUser(context, request)) !== null }
}

export default function EmailVerificationRoute() {
  const { t } = useTranslation()
  const { signedIn } = useLoaderData<typeof loader>()
  const text = signedIn ? t('auth.verifiedText') : t('auth.verifiedSignInText')
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center">
      <PageMeta title={t('auth.verifiedHeading')} description={text} />
      <h1 className="text-3xl font-bold text-slate-900">{t('auth.verifiedHeading')}</h1>
      <p className="mt-3 text-slate-700">{text}</p>
      {/* The spec's button continues to the home page, signed in or not. */}
      <p className="mt-8">
        <Link
          to="/"
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('auth.continue')}
        </Link>
      </p>
      {signedIn ? null : (
        <p className="mt-4 text-slate-700">
          {t('auth.verifiedSignInHint')}{' '}
          <Link to="/auth" className="inline-flex min-h-11 items-center font-semibold text-red-800 underline">
            {t('auth.signIn')}
          </Link>
        </p>
      )}
    </section>
  )
}
