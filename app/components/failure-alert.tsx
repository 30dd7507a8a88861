import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useActionData } from 'react-router'
import { PASSWORD_LIMITS } from '#core/accounts/account-schemas.ts'
import { Toast, ToastStack } from './toast.tsx'

export type FailureTitle =
  | 'signInFailed'
  | 'signUpFailed'
  | 'passwordResetFailed'
  | 'passwordUpdateFailed'
  | 'resendFailed'

/**
 * The catalogue's failure toast, destructive style: what failed (`auth.errors.<titleKey>`), then
 * the server's message (a whole locale key: from app/lib/http-errors.ts, or `auth.errors.google…`).
 * Rendered with the page the action answered, so it shows without JavaScript too; each new
 * answer opens it again after it was closed.
 */
export function FailureAlert({
  titleKey,
  messageKey,
}: {
  titleKey: FailureTitle
  messageKey: string | null
}) {
  const { t } = useTranslation()
  const [closed, setClosed] = useState(false)
  const answer = useActionData()
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer or message reopens it
  useEffect(() => setClosed(false), [answer, messageKey])
  if (!messageKey || closed) return null
  return (
    <ToastStack>
      <Toast
        destructive
        title={t(`auth.errors.${titleKey}`)}
        text={t(messageKey as 'auth.errors.googleFailed')}
        onClose={() => setClosed(true)}
      />
    </ToastStack>
  )
}

/**
 * The specification's toasts for the two password rules ('Password too short', 'Passwords don't
 * match'), beside the messages on the fields themselves.
 */
export function PasswordRuleToasts({
  passwordErrors,
  confirmErrors,
}: {
  passwordErrors: string[] | undefined
  confirmErrors: string[] | undefined
}) {
  const { t } = useTranslation()
  const [closed, setClosed] = useState<string[]>([])
  const answer = useActionData()
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer reopens them
  useEffect(() => setClosed([]), [answer])
  const rules: ('passwordTooShort' | 'passwordsDontMatch')[] = []
  if (passwordErrors?.includes('passwordTooShort')) rules.push('passwordTooShort')
  if (confirmErrors?.includes('passwordsDontMatch')) rules.push('passwordsDontMatch')
  const shown = rules.filter((rule) => !closed.includes(rule))
  if (shown.length === 0) return null
  return (
    <ToastStack>
      {shown.map((rule) => (
        <Toast
          key={rule}
          destructive
          title={t(`toasts.${rule}.title`)}
          text={t(`toasts.${rule}.text`, { min: PASSWORD_LIMITS.min })}
          onClose={() => setClosed((before) => [...before, rule])}
        />
      ))}
    </ToastStack>
  )
}
