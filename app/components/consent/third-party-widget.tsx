import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useRootData } from '#app/lib/root-data.ts'

/**
 * A third-party widget (reviews, Instagram feed). Rendered only when configured and consented;
 * its loader script is added once, from our own code, after hydration. Otherwise `fallback`.
 */
export function ThirdPartyWidget({
  widgetId,
  fallback,
}: {
  widgetId: string | null
  fallback: React.ReactNode
}) {
  const { t } = useTranslation()
  const data = useRootData()
  const allowed = Boolean(widgetId) && data?.thirdParty.consent === 'granted'
  const scriptUrl = data?.thirdParty.scriptUrl

  useEffect(() => {
    if (!allowed || !scriptUrl || document.querySelector(`script[src="${scriptUrl}"]`)) return
    const script = document.createElement('script')
    script.src = scriptUrl
    script.async = true
    document.body.append(script)
  }, [allowed, scriptUrl])

  if (!allowed) {
    return (
      <>
        {fallback}
        {widgetId && data?.thirdParty.consent !== 'granted' ? (
          <p className="mt-4 text-sm text-slate-600">{t('consent.placeholder')}</p>
        ) : null}
      </>
    )
  }
  // On a document page nothing hydrates: the page's script adds the loader it names.
  return (
    <div
      className={`elfsight-app-${widgetId}`}
      data-elfsight-app-lazy=""
      data-widget-script={scriptUrl ?? undefined}
    />
  )
}
