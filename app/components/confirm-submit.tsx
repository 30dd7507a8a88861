import { type ReactNode, type RefObject, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/lib/use-hydrated.ts'

/**
 * The confirmation a money or destructive action asks for (docs/decisions/037), inside its form:
 * the question with its amounts ("Cancel shipment SH-000012? Its receipt of JPY 6,644 will be
 * voided…") and the form's submit button.
 * - Without JavaScript: a checkbox `confirm=yes` labelled with the question; the server refuses
 *   the action without it (and says so on the checkbox).
 * - With JavaScript: the button opens a dialog asking the same question; "yes" ticks the checkbox
 *   and sends the form, "no" closes it and nothing is sent. After a refusal the checkbox shows.
 */
export function ConfirmSubmit({
  question,
  confirmLabel,
  submitLabel,
  error,
  submitClassName,
  submitName,
  submitValue,
  describedBy,
}: {
  /** The question, with what will happen and its amounts. */
  question: ReactNode
  /** The dialog's "yes" button and the checkbox's label ending ("Yes, cancel it"). */
  confirmLabel: string
  submitLabel: string
  /** The server's refusal of this field (not confirmed), already translated. */
  error?: string | null
  submitClassName: string
  submitName?: string
  submitValue?: string
  describedBy?: string
}) {
  const hydrated = useHydrated()
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const checkbox = useRef<HTMLInputElement>(null)
  const submit = useRef<HTMLButtonElement>(null)
  // With JavaScript the dialog asks; the checkbox stays for a refusal to point at.
  const boxHidden = hydrated && !error
  return (
    <div className="space-y-3">
      <ConfirmCheckbox
        id={id}
        hidden={boxHidden}
        checkbox={checkbox}
        question={question}
        confirmLabel={confirmLabel}
        error={error}
      />
      <button
        ref={submit}
        type="submit"
        name={submitName}
        value={submitValue}
        aria-describedby={describedBy}
        className={submitClassName}
        onClick={(event) => {
          if (!hydrated || checkbox.current?.checked) return
          event.preventDefault()
          dialog.current?.showModal()
        }}
      >
        {submitLabel}
      </button>
      {hydrated ? (
        <ConfirmDialog
          dialog={dialog}
          questionId={`${id}-dialog-question`}
          question={question}
          confirmLabel={confirmLabel}
          onConfirm={() => {
            if (checkbox.current) checkbox.current.checked = true
            dialog.current?.close()
            const form = submit.current?.form
            if (form && submit.current) form.requestSubmit(submit.current)
          }}
        />
      ) : null}
    </div>
  )
}

/** The no-JavaScript confirmation: the question and a `confirm=yes` checkbox, with the server's refusal. */
function ConfirmCheckbox({
  id,
  hidden,
  checkbox,
  question,
  confirmLabel,
  error,
}: {
  id: string
  hidden: boolean
  checkbox: RefObject<HTMLInputElement | null>
  question: ReactNode
  confirmLabel: string
  error?: string | null
}) {
  const questionId = `${id}-question`
  const errorId = `${id}-error`
  return (
    <div hidden={hidden} className="space-y-2 rounded-md border border-amber-400 bg-amber-50 p-3">
      <p id={questionId} className="font-medium text-amber-950">
        {question}
      </p>
      <div className="flex min-h-11 items-center gap-3">
        <input
          ref={checkbox}
          type="checkbox"
          id={`${id}-confirm`}
          name="confirm"
          value="yes"
          required
          aria-describedby={error ? `${questionId} ${errorId}` : questionId}
          aria-invalid={error ? true : undefined}
          className="size-5 shrink-0 accent-red-700"
        />
        <label htmlFor={`${id}-confirm`} className="font-semibold text-slate-900">
          {confirmLabel}
        </label>
      </div>
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** The dialog the submit button opens with JavaScript: "no" closes it, "yes" runs `onConfirm`. */
function ConfirmDialog({
  dialog,
  questionId,
  question,
  confirmLabel,
  onConfirm,
}: {
  dialog: RefObject<HTMLDialogElement | null>
  questionId: string
  question: ReactNode
  confirmLabel: string
  onConfirm: () => void
}) {
  const { t } = useTranslation()
  return (
    <dialog
      ref={dialog}
      aria-labelledby={questionId}
      className="m-auto max-w-md rounded-lg border border-slate-300 p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <p id={questionId} className="font-medium">
        {question}
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="min-h-11 rounded-md border border-slate-400 px-4 font-semibold text-slate-900 hover:bg-slate-50"
        >
          {t('confirmAction.keep')}
        </button>
        <button
          type="button"
          onClick={onConfirm}
          className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
