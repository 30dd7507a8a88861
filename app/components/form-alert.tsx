import type { ReactNode } from 'react'

/** The colours of an alert: red (refused), amber (a warning about the order's state), amber framed (a conflict). */
export type FormAlertTone = 'danger' | 'warning' | 'conflict'

const lineText: Record<FormAlertTone, string> = {
  danger: 'text-red-800',
  warning: 'text-amber-950',
  conflict: 'text-amber-950',
}
const boxFrame: Record<FormAlertTone, string> = {
  danger: 'rounded-md border border-red-300 bg-red-50',
  warning: 'rounded-md bg-amber-50',
  conflict: 'rounded-md border border-amber-400 bg-amber-50',
}
const boxPadding: Record<FormAlertTone, string> = { danger: 'p-3', warning: 'p-3', conflict: 'p-4' }
const boxText: Record<FormAlertTone, string> = {
  danger: 'text-red-900',
  warning: 'text-amber-950',
  conflict: 'text-amber-950',
}

const classes = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(' ')

/**
 * A refusal or warning that must be read out at once (role="alert"): a form's own error beside its
 * fields, a conflict box, a warning about the order's state. The one place the app writes
 * role="alert" outside the toasts (app/components/toast.tsx).
 *
 * - `look="line"` (the default): one `<p>` in medium red text, e.g. a form's error above its fields.
 * - `look="box"`: a framed `<p>` in medium text (`weight="normal"`: no weight of its own). With a
 *   `title`, a `<div>`: the title in bold, then `children` in small text (`detailClassName`
 *   replaces that line's classes); a title without `children` is one bold `<p>`.
 *
 * `className` adds classes to the outer element (a margin, `text-sm`); a padding class there (`p-4`)
 * replaces the box's own (p-3; p-4 for a conflict), and a box with p-4 leaves a small gap (mt-1)
 * under its title. Renders nothing without a title and without `children` (null, false or ''), so
 * `{error}` can be passed as it is. `id` is what the fields' aria-describedby names (`form.errorId`).
 */
export function FormAlert({
  id,
  tone = 'danger',
  look = 'line',
  title,
  weight = 'medium',
  className,
  detailClassName,
  'data-testid': testId,
  children,
}: {
  id?: string
  tone?: FormAlertTone
  look?: 'line' | 'box'
  title?: ReactNode
  weight?: 'medium' | 'normal'
  className?: string
  detailClassName?: string
  'data-testid'?: string
  children?: ReactNode
}) {
  const empty = children === null || children === undefined || children === false || children === ''
  const titled = title !== null && title !== undefined && title !== false && title !== ''
  if (empty && !titled) return null
  if (look === 'line') {
    return (
      <p
        id={id}
        role="alert"
        className={classes(className, 'font-medium', lineText[tone])}
        data-testid={testId}
      >
        {children}
      </p>
    )
  }
  const extra = className?.split(/\s+/).filter(Boolean) ?? []
  const isPadding = (name: string) => /^p-\d+(\.\d+)?$/.test(name)
  const padding = extra.filter(isPadding).join(' ') || boxPadding[tone]
  const box = (fontWeight: string | false) =>
    classes(
      extra.filter((name) => !isPadding(name)).join(' '),
      boxFrame[tone],
      padding,
      fontWeight,
      boxText[tone],
    )
  if (!titled) {
    return (
      <p id={id} role="alert" className={box(weight === 'medium' && 'font-medium')} data-testid={testId}>
        {children}
      </p>
    )
  }
  if (empty) {
    return (
      <p id={id} role="alert" className={box('font-semibold')} data-testid={testId}>
        {title}
      </p>
    )
  }
  return (
    <div id={id} role="alert" className={box(false)} data-testid={testId}>
      <p className="font-semibold">{title}</p>
      <p className={(detailClassName ?? (padding === 'p-4' ? 'mt-1 text-sm' : 'text-sm')) || undefined}>
        {children}
      </p>
    </div>
  )
}
