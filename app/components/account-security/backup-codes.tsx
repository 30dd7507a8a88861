import { getFormProps } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useFormError } from '#app/components/error-text.ts'
import { IntentButton } from '#app/components/mfa-fields.tsx'
import { useRootData } from '#app/lib/root-data.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { FormIdInput, PasswordField } from './fields.tsx'
import { useSecurityForm } from './security-form.ts'

/**
 * New backup codes, shown once, after the first factor or a regeneration: selectable text, a
 * text file to download (a data: link in the page itself, so it works without JavaScript too)
 * and, with JavaScript, a button that copies them.
 */
export function BackupCodesList({ codes }: { codes: string[] }) {
  const { t } = useTranslation()
  const site = useRootData()?.settings.company.name ?? ''
  const file = `${t('mfa.backupFileHeading', { site })}\n\n${codes.join('\n')}\n`
  return (
    <div className="mt-6 rounded-lg border-2 border-amber-500 bg-amber-50 p-5">
      <h2 className="font-semibold text-amber-950">{t('mfa.backupCodesLabel')}</h2>
      <p className="mt-1 text-sm text-amber-950">{t('mfa.backupShowOnce')}</p>
      <ul
        aria-label={t('mfa.backupCodesLabel')}
        className="mt-3 grid grid-cols-2 gap-2 font-mono text-lg text-slate-900"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
          download={t('mfa.backupFileName')}
          className="inline-flex min-h-11 items-center rounded-md border border-slate-400 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50"
        >
          {t('mfa.backupDownload')}
        </a>
        <CopyButton text={codes.join('\n')} />
      </div>
    </div>
  )
}

/** Copies the codes; shown only once JavaScript runs (without it the codes are selectable text). */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  if (!hydrated) return null
  return (
    <>
      <button
        type="button"
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
        className="inline-flex min-h-11 items-center rounded-md border border-slate-400 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50"
      >
        {t('mfa.backupCopy')}
      </button>
      <p role="status" className="flex min-h-11 items-center text-sm font-medium text-amber-950">
        {state === 'copied' ? t('mfa.backupCopied') : state === 'failed' ? t('mfa.backupCopyFailed') : ''}
      </p>
    </>
  )
}

/** The backup-code section: how many are left, and new ones for the password. */
export function BackupCodesSection({ enabled, remaining }: { enabled: boolean; remaining: number }) {
  const { t } = useTranslation()
  return (
    <>
      <h2 className="mt-10 text-2xl font-bold text-slate-900">{t('mfa.backupHeading')}</h2>
      <p className="mt-2 text-slate-700">{t('mfa.backupText')}</p>
      {enabled ? (
        <>
          <p className="mt-2 font-medium text-slate-900">{t('mfa.backupRemaining', { count: remaining })}</p>
          <RegenerateForm />
        </>
      ) : (
        <p className="mt-2 text-slate-700">{t('mfa.backupNone')}</p>
      )}
    </>
  )
}

function RegenerateForm() {
  const { t } = useTranslation()
  const [form, fields] = useSecurityForm('regenerate')
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="mt-4 space-y-3 rounded-lg border border-slate-200 p-4"
    >
      <FormIdInput formId={form.id} />
      <p className="text-sm text-slate-700">{t('mfa.backupRegenerateText')}</p>
      <PasswordField
        field={fields.password ?? { id: 'regenerate-password', name: 'password' }}
        formError={useFormError(form)}
      />
      <IntentButton intent="regenerate" label={t('mfa.backupRegenerate')} secondary />
    </Form>
  )
}
