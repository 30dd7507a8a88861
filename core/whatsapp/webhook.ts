import { z } from 'zod'
import type { InboundEvent, StatusEvent } from './dispatch.ts'

/**
 * The Cloud API's webhook body (field `messages`): `entry[].changes[].value` with `statuses`
 * (receipts of what we sent) and `messages` (what customers wrote). Loose: other fields and event
 * kinds are ignored, an entry we cannot read is skipped, never an error for Meta to redeliver.
 */
const Status = z.looseObject({
  id: z.string().min(1).max(200),
  status: z.string(),
  timestamp: z.string().regex(/^\d{1,12}$/),
  errors: z.array(z.looseObject({ code: z.number().int().optional() })).optional(),
})
const Message = z.looseObject({
  id: z.string().min(1).max(200),
  from: z.string().regex(/^\d{8,15}$/),
  type: z.string().optional(),
  text: z.looseObject({ body: z.string().max(4096) }).optional(),
  button: z.looseObject({ text: z.string().max(1000) }).optional(),
})
const Body = z.looseObject({
  object: z.string(),
  entry: z
    .array(
      z.looseObject({
        changes: z
          .array(
            z.looseObject({
              field: z.string().optional(),
              value: z.looseObject({
                statuses: z.array(z.unknown()).optional(),
                messages: z.array(z.unknown()).optional(),
              }),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
})

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed'])

/** The events of one delivery; null when it is not a WhatsApp webhook body at all. */
export function parseWebhookBody(raw: string): { statuses: StatusEvent[]; inbound: InboundEvent[] } | null {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return null
  }
  const body = Body.safeParse(json)
  if (!body.success || body.data.object !== 'whatsapp_business_account') return null
  const statuses: StatusEvent[] = []
  const inbound: InboundEvent[] = []
  for (const entry of body.data.entry) {
    for (const change of entry.changes) {
      for (const item of change.value.statuses ?? []) {
        const status = Status.safeParse(item)
        if (!status.success || !STATUSES.has(status.data.status)) continue
        statuses.push({
          wamid: status.data.id,
          status: status.data.status as StatusEvent['status'],
          at: new Date(Number(status.data.timestamp) * 1000),
          errorCode: status.data.errors?.[0]?.code ?? null,
        })
      }
      for (const item of change.value.messages ?? []) {
        const message = Message.safeParse(item)
        if (!message.success) continue
        inbound.push({
          id: message.data.id,
          from: `+${message.data.from}`,
          text: message.data.text?.body ?? message.data.button?.text ?? null,
        })
      }
    }
  }
  return { statuses, inbound }
}
