import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * A comment or a doc that names a file of the repository names one that exists: every token that
 * looks like a repository path (a known top-level folder, then a file with a known extension) in
 * the *.ts / *.tsx files and in README.md and docs/**\/*.md must be a file (or folder) in the
 * tree. Patterns are not paths: a token with `*`, `…`, `<…>`, `{…}`, `$` or `[` is left alone, and
 * so is a path written relative to another folder (`../shared/…`, `.react-router/types/app/…`).
 */

const TOP = ['app', 'core', 'db', 'server', 'tests', 'scripts', 'docs', 'public']
const EXTENSIONS = ['ts', 'tsx', 'md', 'sql', 'css', 'json', 'js', 'mjs', 'txt', 'svg', 'png', 'webp']

/** The path-looking tokens of a text: `core/orders/foo.ts`, `#core/orders/foo.ts`, `docs/decisions/005-x.md`. */
function pathTokens(text: string): string[] {
  const pattern = new RegExp(
    String.raw`(?<![\w./@~+-])#?((?:${TOP.join('|')})/[\w./*…<>{}$\[\]-]*?\.(?:${EXTENSIONS.join('|')}))(?![\w/*…<>{}$-])`,
    'g',
  )
  return [...text.matchAll(pattern)]
    .map((match) => match[1] as string)
    .filter((token) => !/[*…<>{}$[\]]|\.\.\.|\/\//.test(token))
}

/** `docs/decisions/034` or `ADR 034` (a decision named by its number, no file name): its numbers. */
function decisionNumbers(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])(?:docs\/decisions\/|ADR )(\d{3})(?![\w.-])/g)].map(
    (match) => match[1] as string,
  )
}

const decisions = existsSync('docs/decisions') ? readdirSync('docs/decisions') : []
const decisionExists = (number: string) => decisions.some((file) => file.startsWith(`${number}-`))

/** The tokens naming nothing in the tree, with the file (and line) that names them. */
function brokenReferences(files: readonly string[], exists: (path: string) => boolean) {
  const broken: string[] = []
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n')
    lines.forEach((line, index) => {
      for (const token of pathTokens(line)) if (!exists(token)) broken.push(`${file}:${index + 1} ${token}`)
      for (const number of decisionNumbers(line))
        if (!decisionExists(number)) broken.push(`${file}:${index + 1} docs/decisions/${number}`)
    })
  }
  return broken
}

const scanned = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.tsx?$/.test(file) || file === 'README.md' || /^docs\/.*\.md$/.test(file))
  .filter((file) => existsSync(file) && file !== 'tests/doc-paths.test.ts')

describe('paths named in comments and docs', () => {
  it('finds path tokens and leaves patterns alone', () => {
    expect(pathTokens('see core/orders/request-service.ts and docs/decisions/005-yen-rounding.md.')).toEqual([
      'core/orders/request-service.ts',
      'docs/decisions/005-yen-rounding.md',
    ])
    expect(pathTokens("import { x } from '#core/shared/errors.ts'")).toEqual(['core/shared/errors.ts'])
    expect(pathTokens('core/orders/*-machine.ts, docs/decisions/0xx-….md, ../shared/design/x.md')).toEqual([])
    expect(pathTokens('.react-router/types/app/routes/+types/home.ts')).toEqual([])
    expect(decisionNumbers('(docs/decisions/034), docs/decisions/005-yen-rounding.md, ADR 021')).toEqual([
      '034',
      '021',
    ])
  })

  it('reports a path that does not exist', () => {
    const broken = brokenReferences(['tests/doc-paths.test.ts'], existsSync)
    expect(broken).toContainEqual(expect.stringMatching(/ core\/orders\/no-such-file\.ts$/))
    expect(broken).toContainEqual(expect.stringMatching(/ docs\/decisions\/999$/))
    expect(broken).toContainEqual(expect.stringMatching(/ docs\/decisions\/998$/))
  })

  it('every path a comment or a doc names exists', () => {
    expect(brokenReferences(scanned, existsSync)).toEqual([])
  })
})
// The lines the second test reads: core/orders/no-such-file.ts
// and docs/decisions/999, and ADR 998
