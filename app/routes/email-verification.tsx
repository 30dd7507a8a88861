import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { getSessionUser } from '#app/lib/session.server.ts'
import { areas } from '#app/locales/areas.ts'
import type { Route } from './+types/email-verification.ts'

// A link opened for the first time signs its holder in; opened again (the address is already
// verified) it signs no one in, and the page says to sign in.

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
      <p className="mt-8">
        <Link
          to={signedIn ? '/' : '/auth'}
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {signedIn ? t('auth.continue') : t('auth.signIn')}
        </Link>
      </p>
    </section>
  )
}
