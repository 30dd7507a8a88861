import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import en from './en.ts'
import es from './es.ts'

// Every refusal a service can give (`new AppError(…, { reason: '…' })`, and the reasons order
// services pass to `parse`) has its sentence in both languages: a page never shows a raw key.

const ROOTS = ['core', 'app', 'server']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : []
  })
}

function reasonsUsed(): Map<string, string> {
  const used = new Map<string, string>()
  for (const file of ROOTS.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8')
    for (const call of text.matchAll(/new AppError\(/g)) {
      // The call's arguments: up to its closing parenthesis.
      let depth = 1
      let end = (call.index ?? 0) + call[0].length
      while (end < text.length && depth > 0) {
        if (text[end] === '(') depth++
        else if (text[end] === ')') depth--
        end++
      }
      const args = text.slice((call.index ?? 0) + call[0].length, end)
      for (const found of args.matchAll(/reason: '(\w+)'/g)) used.set(found[1] ?? '', file)
    }
    for (const found of text.matchAll(/\bparse\(\w+, \w+, '(\w+)'\)/g)) used.set(found[1] ?? '', file)
  }
  return used
}

test('every error reason the code gives has its message in Spanish and English', () => {
  const used = reasonsUsed()
  expect(used.size).toBeGreaterThan(40)
  const missing = [...used].filter(
    ([reason]) => !(reason in en.errors.reasons) || !(reason in es.errors.reasons),
  )
  expect(missing).toEqual([])
})
