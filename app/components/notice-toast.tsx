import { useEffect, useState } from 'react'
import type { ShownNotice } from '#app/lib/notice.ts'
import { Toast, ToastStack } from './toast.tsx'

/**
 * The one place a notice shows (app/lib/notice.ts): what the last change did, carried across its
 * redirect and translated by the root loader. It arrives in one loader response only, so it is
 * kept here once shown (a later revalidation must not erase it) and closes itself after a few
 * seconds, or on its button. Server-rendered, so it shows without JavaScript too.
 */
export function NoticeToast({ notice: incoming }: { notice: ShownNotice | null }) {
  const [notice, setNotice] = useState(incoming)
  useEffect(() => {
    if (incoming) setNotice(incoming)
  }, [incoming])
  useEffect(() => {
    if (!notice) return
    const timer = setTimeout(() => setNotice(null), 8000)
    return () => clearTimeout(timer)
  }, [notice])
  if (!notice) return null
  return (
    <ToastStack>
      <Toast
        title={notice.title}
        text={notice.text}
        destructive={notice.failure}
        onClose={() => setNotice(null)}
      />
    </ToastStack>
  )
}
