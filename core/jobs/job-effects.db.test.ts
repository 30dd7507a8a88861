import { expect, test } from 'vitest'
import { jobEffects } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { JOB_EFFECTS_KEPT_DAYS, pruneJobEffects, runEffectOnce } from './job-effects.ts'

test('an effect runs once per key; a failed effect records nothing, so its retry runs it', async () => {
  const { db } = await createTestDatabase()
  const done: string[] = []
  expect(await runEffectOnce(db, 'email.send:1', async () => void done.push('first'))).toBe(true)
  expect(await runEffectOnce(db, 'email.send:1', async () => void done.push('again'))).toBe(false)
  await expect(
    runEffectOnce(db, 'email.send:2', async () => {
      throw new Error('SMTP down')
    }),
  ).rejects.toThrow('SMTP down')
  expect(await runEffectOnce(db, 'email.send:2', async () => void done.push('retried'))).toBe(true)
  expect(done).toEqual(['first', 'retried'])
})

test(`keys older than ${JOB_EFFECTS_KEPT_DAYS} days are pruned, newer ones kept`, async () => {
  const { db } = await createTestDatabase()
  const day = 24 * 3600 * 1000
  await db.insert(jobEffects).values([
    { key: 'old', doneAt: new Date(Date.now() - (JOB_EFFECTS_KEPT_DAYS + 1) * day) },
    { key: 'recent', doneAt: new Date(Date.now() - day) },
  ])
  expect(await pruneJobEffects(db)).toBe(1)
  expect((await db.select().from(jobEffects)).map((row) => row.key)).toEqual(['recent'])
})
