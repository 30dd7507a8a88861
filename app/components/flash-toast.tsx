import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FlashMessage } from '#app/lib/flash.ts'
import { Toast, ToastStack } from './toast.tsx'

/**
 * A one-shot confirmation carried across a redirect. The message arrives in one loader response
 * only, so it is kept here once shown (a later revalidation must not erase it) and closes itself
 * after a few seconds, or on its button. Server-rendered, so it shows without JavaScript too.
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
  return (
    <ToastStack>
      <Toast
        title={t(`toasts.${message}.title`)}
        text={t(`toasts.${message}.text`)}
        // The catalogue's failures show in the destructive style.
        destructive={message.endsWith('Failed')}
        onClose={() => setMessage(null)}
      />
    </ToastStack>
  )
}
