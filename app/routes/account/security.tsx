import { data, redirect, useActionData, useLoaderData } from 'react-router'
import type { SecurityOutcome } from '#app/components/account-security/security-form.ts'
import { SecurityPage } from '#app/components/account-security/security-page.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { mfaClient } from '#app/lib/mfa.server.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { qrPath } from '#app/lib/qr.server.ts'
import { accountPageHeaders } from '#app/lib/session.server.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import { MFA_LIMITS } from '#core/accounts/mfa/mfa-limits.ts'
import { SecurityFormSchema } from '#core/accounts/mfa/mfa-schemas.ts'
import type { Route } from './+types/security.ts'

// The account's security settings (app/components/account-security/): every form goes through
// Conform and its zod schema, then the MFA client; a refusal comes back on the form that sent it.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context)
  const mfa = mfaClient(context, request)
  const { aal, factors, backupCodesRemaining } = await mfa.overview()
  // An authenticator app being set up shows its QR code and key until a code confirms it.
  const setups = await Promise.all(
    factors
      .filter((factor) => factor.type === 'totp' && factor.status === 'unverified')
      .map(async (factor) => {
        const setup = await mfa.totpSetup(factor.id)
        return { factorId: factor.id, secret: setup.secret, qr: qrPath(setup.uri) }
      }),
  )
  const url = new URL(request.url)
  return {
    user,
    aal,
    factors,
    setups,
    backupCodesRemaining,
    sent: { factorId: url.searchParams.get('factor'), challengeId: url.searchParams.get('challenge') },
    smsMinutes: MFA_LIMITS.smsCodeSeconds / 60,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const formId = String(form.get('formId') ?? '').slice(0, 80)
  const submission = parseSubmission(form, { schema: SecurityFormSchema })
  if (submission.status !== 'success') return data({ formId, result: submission.reply() }, { status: 400 })
  const mfa = mfaClient(context, request)
  const input = submission.value
  const done = (outcome: SecurityOutcome) =>
    data({ formId, result: submission.reply({ resetForm: true }), outcome })

  /** Sends the phone a code, then shows the form for it (post/redirect/get). */
  const sendSms = async (factorId: string) => {
    const challenge = await mfa.challenge(factorId)
    return redirect(`/account/security?${new URLSearchParams({ factor: factorId, challenge: challenge.id })}`)
  }

  try {
    switch (input.intent) {
      case 'add-totp':
        await mfa.enroll({ type: 'totp', friendlyName: input.friendlyName })
        return redirect('/account/security')
      case 'add-phone': {
        const created = await mfa.enroll({
          type: 'phone',
          friendlyName: input.friendlyName,
          phone: input.phone,
        })
        return await sendSms(created.id)
      }
      case 'send-sms':
        return await sendSms(input.factorId)
      case 'confirm': {
        const verified = await mfa.verifyCode(input)
        return done({ intent: 'confirm', name: input.name ?? '', backupCodes: verified.backupCodes })
      }
      case 'remove':
        await mfa.remove(input.factorId, input.password)
        return redirectWithNotice(context, '/account/security', {
          name: 'factorRemoved',
          params: { name: (input.name ?? '').slice(0, 100) },
        })
      case 'regenerate':
        return done({ intent: 'regenerate', backupCodes: await mfa.regenerateBackupCodes(input.password) })
    }
  } catch (error) {
    return formFailure(error, submission, { formId, outcome: null })
  }
}

export const headers: Route.HeadersFunction = accountPageHeaders

export default function SecurityRoute() {
  return <SecurityPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />
}
