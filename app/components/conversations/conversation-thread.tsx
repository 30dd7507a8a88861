import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, fileInputClass, inputClass } from '#app/components/form-field.tsx'
import { MESSAGE_FILE_ACCEPT, MESSAGE_MAX_CHARS, messageParts } from '#core/conversations/message-rules.ts'

// The conversation of a request or a shipment (docs/decisions/048), as the customer and staff
// see it: every message with who wrote it and when, its photos and PDF, whether the other side
// has read it, and the form to write (a plain multipart post: it works without JavaScript).

/** A message as the page shows it (app/lib/conversation-views.server.ts writes its labels). */
export type ThreadMessage = {
  id: string
  side: 'customer' | 'staff'
  /** The viewer wrote it (their side). */
  mine: boolean
  authorLabel: string
  dateLabel: string
  body: string
  readByOther: boolean
  attachments: {
    id: string
    contentType: 'image/webp' | 'application/pdf'
    width: number | null
    height: number | null
    sizeKb: number
  }[]
}

/** The form's refusal, as the action answers it. */
export type ThreadFormResult = {
  formError: string | null
  errors: { body?: string[]; files?: string[] }
  body: string
}

type Prefix = 'conversation' | 'staffConversation'

export function ConversationThread({
  prefix,
  messages,
  action,
  fileHref,
  result,
  children,
}: {
  /** Whose texts: the customer's (account area) or the staff's (admin area). */
  prefix: Prefix
  messages: ThreadMessage[]
  /** Where the form posts. */
  action: string
  fileHref: (attachmentId: string) => string
  result?: ThreadFormResult | null
  /** Above the messages: the staff's assignment. */
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const text = (key: string, values?: Record<string, unknown>) =>
    String(t(`${prefix}.${key}` as never, values as never))
  const fieldError = (codes?: string[]) => (codes?.[0] ? text(`errors.${codes[0]}`) : null)
  return (
    <section id="conversation" aria-labelledby="conversation-heading" className="space-y-4">
      <h2 id="conversation-heading" className="text-xl font-semibold text-slate-900">
        {text('heading')}
      </h2>
      <p className="text-slate-700">{text('lead')}</p>
      {children}
      {messages.length === 0 ? (
        <p className="text-slate-700">{text('empty')}</p>
      ) : (
        <ol className="space-y-3" data-testid="conversation-messages">
          {messages.map((message) => (
            <li
              key={message.id}
              data-testid="conversation-message"
              className={`rounded-lg border p-3 ${message.mine ? 'border-sky-200 bg-sky-50 sm:ml-8' : 'border-slate-200 bg-white sm:mr-8'}`}
            >
              <p className="flex flex-wrap justify-between gap-x-3 text-sm text-slate-700">
                <span className="font-semibold text-slate-900">{message.authorLabel}</span>
                <span>{text('writtenAt', { date: message.dateLabel })}</span>
              </p>
              {message.body ? (
                <p className="mt-1 whitespace-pre-line break-words text-slate-900">
                  {messageParts(message.body).map((part, index) =>
                    part.kind === 'link' ? (
                      <a
                        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
                        key={index}
                        href={part.href}
                        target="_blank"
                        rel="noopener noreferrer nofollow ugc"
                        className="text-red-800 underline"
                      >
                        {part.text}
                      </a>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
                      <span key={index}>{part.text}</span>
                    ),
                  )}
                </p>
              ) : null}
              {message.attachments.length > 0 ? (
                <ul className="mt-2 flex flex-wrap gap-2">
                  {message.attachments.map((file, index) => (
                    <li key={file.id}>
                      {file.contentType === 'application/pdf' ? (
                        <a href={fileHref(file.id)} className="font-semibold text-red-800 underline">
                          {text('pdf', { size: file.sizeKb })}
                        </a>
                      ) : (
                        <a href={fileHref(file.id)} target="_blank" rel="noopener">
                          <img
                            src={fileHref(file.id)}
                            alt={text('photoAlt', { position: index + 1, date: message.dateLabel })}
                            width={file.width ?? undefined}
                            height={file.height ?? undefined}
                            loading="lazy"
                            className="h-24 w-auto rounded border border-slate-300 object-cover"
                          />
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
              {message.mine ? (
                <p className="mt-1 text-right text-sm text-slate-700" data-testid="message-read">
                  {message.readByOther ? `✓✓ ${text('read')}` : `✓ ${text('sent')}`}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        className="space-y-3 rounded-lg border border-slate-200 p-4"
        aria-labelledby="conversation-heading"
      >
        <FormAlert id="conversation-form-error">{result?.formError ?? null}</FormAlert>
        <FormField
          id="conversation-body"
          label={text('message')}
          hint={text('messageHint')}
          error={fieldError(result?.errors.body)}
        >
          {(control) => (
            <textarea
              {...control}
              name="body"
              rows={4}
              maxLength={MESSAGE_MAX_CHARS}
              defaultValue={result?.body ?? ''}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        <FormField
          id="conversation-files"
          label={text('files')}
          hint={text('filesHint')}
          error={fieldError(result?.errors.files)}
        >
          {(control) => (
            <input
              {...control}
              type="file"
              name="files"
              multiple
              accept={MESSAGE_FILE_ACCEPT}
              className={fileInputClass}
            />
          )}
        </FormField>
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-800 px-4 font-semibold text-white hover:bg-red-900"
        >
          {text('send')}
        </button>
      </Form>
    </section>
  )
}
