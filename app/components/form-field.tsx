import type { ReactNode } from 'react'

export type FieldControlProps = {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
}

/**
 * A label, a control, an optional hint and an error, wired for assistive technology: the
 * control is described by the hint and the error, and marked invalid while the error shows.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string
  label: string
  hint?: string | null
  error?: string | null
  children: (control: FieldControlProps) => ReactNode
}) {
  const hintId = hint ? `${id}-hint` : null
  const errorId = error ? `${id}-error` : null
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': true as const } : {}) })}
      {hint ? (
        <p id={hintId ?? undefined} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId ?? undefined} className="text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A file input (photos): its button as tall as the other controls. */
export const fileInputClass =
  'block max-w-full text-base text-slate-900 file:mr-3 file:min-h-11 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-4 file:font-semibold'

export const inputClass =
  'block min-h-11 w-full rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900 aria-invalid:border-red-700'
