import { asc, eq } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { whatsappContacts, whatsappMessages } from '#db/schema/index.ts'

/**
 * The WhatsApp part of "download my data": the number and the updates chosen (never the code's
 * hash), and each message tried with its receipts (docs/decisions/049).
 */
export async function exportWhatsAppData(db: Database, userId: string) {
  const [contact] = await db
    .select({
      phone: whatsappContacts.phone,
      status: whatsappContacts.status,
      categories: whatsappContacts.categories,
      verifiedAt: whatsappContacts.verifiedAt,
      stoppedAt: whatsappContacts.stoppedAt,
    })
    .from(whatsappContacts)
    .where(eq(whatsappContacts.userId, userId))
  const messages = await db
    .select({
      phone: whatsappMessages.phone,
      template: whatsappMessages.template,
      language: whatsappMessages.language,
      status: whatsappMessages.status,
      errorCode: whatsappMessages.errorCode,
      createdAt: whatsappMessages.createdAt,
      sentAt: whatsappMessages.sentAt,
      deliveredAt: whatsappMessages.deliveredAt,
      readAt: whatsappMessages.readAt,
      failedAt: whatsappMessages.failedAt,
      emailedInsteadAt: whatsappMessages.fallbackAt,
    })
    .from(whatsappMessages)
    .where(eq(whatsappMessages.userId, userId))
    .orderBy(asc(whatsappMessages.createdAt))
  return { number: contact ?? null, messages }
}
