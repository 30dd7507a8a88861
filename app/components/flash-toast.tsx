import { X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FlashMessage } from '#app/lib/flash.ts'

/**
 * A one-shot confirmation carried across a redirect. The message arrives in one loader response
 * only, so it is kept here once shown (a later revalidation must not erase it) and closes itself
 * after a few seconds, or on its button.
 */
export function FlashToast({ message: incoming }: { message: FlashMessage | null }) {
  const { t } = useTranslation()
  const [message, setMessage] = useState(incoming)
  useEffect(() => {
    if (incoming) setMessage(incoming)
  }, [incoming])
  useEffect(() => {
    if (!message) return
    const timer = setTimeout(() => setMessage(null), 6000)
    return () => clearTimeout(timer)
  }, [message])
  if (!message) return null
  // The catalogue's failures show in the destructive style.
  const destructive = message.endsWith('Failed')
  return (
    <div
      role={destructive ? 'alert' : 'status'}
      className={`fixed right-4 bottom-4 z-40 flex max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg ${destructive ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`}
    >
      <div>
        <p className="font-semibold text-slate-900">{t(`toasts.${message}.title`)}</p>
        <p className="text-sm text-slate-700">{t(`toasts.${message}.text`)}</p>
      </div>
      <button
        type="button"
        onClick={() => setMessage(null)}
        aria-label={t('toasts.close')}
        className="flex min-h-11 min-w-11 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  )
}
