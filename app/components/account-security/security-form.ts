import { type SubmissionResult, useForm } from '@conform-to/react'
import { createContext, useContext } from 'react'
import type { PublicFactor } from '#app/lib/mfa.server.ts'

export type SecurityFactor = PublicFactor

/** What a successful submission of the security page leaves to show. */
export type SecurityOutcome =
  | { intent: 'confirm'; name: string; backupCodes: string[] | null }
  | { intent: 'regenerate'; backupCodes: string[] }

/** The security page's last answer: which form sent it, Conform's result, and what it achieved. */
export type SecurityActionData = {
  formId: string
  result: SubmissionResult<string[]>
  outcome?: SecurityOutcome | null
}

export const SecurityActionContext = createContext<SecurityActionData | undefined>(undefined)

export function useSecurityAction(): SecurityActionData | undefined {
  return useContext(SecurityActionContext)
}

/**
 * One Conform form of the page (many share the one action): it gets the last result only when
 * that answer was its own, told by the hidden `formId` every form posts.
 */
export function useSecurityForm(formId: string) {
  const last = useSecurityAction()
  return useForm<Record<string, string>>({
    id: formId,
    lastResult: last?.formId === formId ? last.result : undefined,
  })
}
