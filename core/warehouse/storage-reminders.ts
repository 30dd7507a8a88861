import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { SettingsService } from '#core/settings/settings-service.ts'
import type { Database } from '#db/client.ts'
import { purchaseRequests, requestItems, storageReminders } from '#db/schema/index.ts'
import { storageCountdown } from './storage.ts'

/**
 * The scheduled job `storage.remind` (daily, 09:00 Japan time; core/jobs/registry.ts): tells each
 * customer, once per item and threshold, that free storage of items at our office ends in N days
 * (the `storageReminderDays` setting: 7 and 1) and, once, that it has ended (with the daily fee
 * that applies from then). Items waiting in a shipment request are left alone (their count is
 * paused). One notification per customer and threshold, however many items; one transaction
 * for the run, so a failed run tells no one and the next run does it all. Idempotent: the
 * `storage_reminders` row (item, threshold) is written with the notification; a second run, or
 * a second process, finds it and sends nothing (docs/decisions/027).
 */

export type ReminderRun = { reminded: number; ended: number }

/** Rows per insert: 3 parameters each, well under PostgreSQL's limit of 65,535 a statement. */
const INSERT_CHUNK = 5000

export async function sendStorageReminders(
  { db, jobs, settings }: { db: Database; jobs: AppJobEnqueuer; settings: Pick<SettingsService, 'get'> },
  now: Date,
): Promise<ReminderRun> {
  const { freeStorageDays, storageReminderDays, storageFeePerDayJpy, disposalAfterDays } =
    await settings.get()
  const thresholds = [...storageReminderDays].sort((a, b) => a - b)
  return db.transaction(async (tx) => {
    // Items at the office, not waiting in a shipment, not yet told that their storage ended.
    const ended = tx
      .select({ one: sql`1` })
      .from(storageReminders)
      .where(and(eq(storageReminders.itemId, requestItems.id), eq(storageReminders.thresholdDays, 0)))
    const items = await tx
      .select({
        id: requestItems.id,
        userId: purchaseRequests.userId,
        receivedAt: requestItems.receivedAt,
        pausedDays: requestItems.storagePausedDays,
      })
      .from(requestItems)
      .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
      .where(
        and(
          eq(requestItems.status, 'received'),
          isNull(requestItems.reservedAt),
          isNotNull(requestItems.receivedAt),
          sql`not exists (${ended})`,
        ),
      )
    // Each item's threshold today: 0 once ended, else the smallest reminder day it has reached.
    const reached: { id: string; userId: string; threshold: number; freeUntil: string }[] = []
    const rows: { itemId: string; thresholdDays: number; sentAt: Date }[] = []
    for (const item of items) {
      if (!item.receivedAt) continue
      const countdown = storageCountdown(item.receivedAt, now, freeStorageDays, {
        pausedDays: item.pausedDays,
      })
      const threshold = countdown.expired ? 0 : thresholds.find((days) => countdown.daysLeft <= days)
      if (threshold === undefined) continue
      reached.push({ id: item.id, userId: item.userId, threshold, freeUntil: countdown.freeUntil })
      // This threshold and every larger one (a run that missed days, or days given back by a
      // cancelled shipment, never sends "7 days" after "1 day").
      for (const days of [threshold, ...thresholds.filter((days) => days > threshold)])
        rows.push({ itemId: item.id, thresholdDays: days, sentAt: now })
    }
    // All the rows at once (in chunks, under PostgreSQL's 65,535 parameters a statement); an item
    // is told only if its row for today's threshold is new: an earlier run, or another process
    // now, that wrote it has told (or is telling) its customer.
    const written = new Set<string>()
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const inserted = await tx
        .insert(storageReminders)
        .values(rows.slice(start, start + INSERT_CHUNK))
        .onConflictDoNothing()
        .returning({ itemId: storageReminders.itemId, thresholdDays: storageReminders.thresholdDays })
      for (const row of inserted) written.add(`${row.itemId}:${row.thresholdDays}`)
    }
    const due = new Map<string, { userId: string; threshold: number; itemIds: string[]; freeUntil: string }>()
    for (const item of reached) {
      if (!written.has(`${item.id}:${item.threshold}`)) continue
      const key = `${item.userId}:${item.threshold}`
      const group = due.get(key) ?? {
        userId: item.userId,
        threshold: item.threshold,
        itemIds: [],
        freeUntil: item.freeUntil,
      }
      group.itemIds.push(item.id)
      if (item.freeUntil < group.freeUntil) group.freeUntil = item.freeUntil
      due.set(key, group)
    }
    const run: ReminderRun = { reminded: 0, ended: 0 }
    for (const group of due.values()) {
      if (group.threshold === 0) {
        await notifyCustomer(tx, jobs, {
          userId: group.userId,
          type: 'storage_ended',
          params: {
            count: group.itemIds.length,
            feeJpy: storageFeePerDayJpy,
            disposalDays: disposalAfterDays,
          },
          link: '/user-dashboard/shipping',
        })
        run.ended += 1
      } else {
        await notifyCustomer(tx, jobs, {
          userId: group.userId,
          type: 'storage_reminder',
          params: { count: group.itemIds.length, days: group.threshold, lastDay: group.freeUntil },
          link: '/user-dashboard/shipping',
        })
        run.reminded += 1
      }
    }
    return run
  })
}
