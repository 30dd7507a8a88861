import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** Where toasts appear: the bottom right corner, stacked. Rendered on the server too (no-JS). */
export function ToastStack({ children }: { children: ReactNode }) {
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 left-4 z-40 flex flex-col items-end gap-2 sm:left-auto [&>*]:pointer-events-auto">
      {children}
    </div>
  )
}

/**
 * One toast as the specification has them: a title and a description; failures in the
 * destructive style, announced as alerts, the rest as status messages.
 */
export function Toast({
  title,
  text,
  destructive = false,
  onClose,
}: {
  title: string
  text?: string | null
  destructive?: boolean
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <div
      data-toast
      role={destructive ? 'alert' : 'status'}
      className={`flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg ${destructive ? 'border-red-300 bg-red-50 text-red-950' : 'border-slate-200 bg-white text-slate-900'}`}
    >
      <div className="flex-1">
        <p className="font-semibold">{title}</p>
        {text ? <p className="text-sm">{text}</p> : null}
      </div>
      <button
        type="button"
        data-toast-close
        onClick={onClose}
        aria-label={t('toasts.close')}
        className="flex min-h-11 min-w-11 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  )
}
