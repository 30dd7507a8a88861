/**
 * `npm run shape:counts`: the counts of issue 28 ("One shape, second pass"), measured on the
 * current tree (`git ls-files`, committed and untracked-but-not-ignored files), so the "before"
 * and "after" figures come from the same rules. Each count says how it is measured; a count is
 * only as good as its rule, and the rules are plain on purpose (a text pattern or a walk of the
 * syntax tree), not a judgement.
 *
 * Production code = *.ts / *.tsx under app/, core/, db/, server/, scripts/, without tests
 * (`*.test.ts(x)`, `*.spec.ts`, tests/), declarations (`*.d.ts`), migrations and seed data
 * (db/migrations/, db/seed-data/).
 *
 * The syntax trees come from the TypeScript compiler's API (TypeScript 7's
 * `typescript/unstable/sync`, which loads tsconfig.json's program: about half a minute).
 * `--list` also prints the files and functions behind each count.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast'
import { API } from 'typescript/unstable/sync'

const root = process.cwd()
const list = process.argv.includes('--list')

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.tsx?$/.test(file) && existsSync(file))

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.startsWith('tests/')
const isProduction = (file: string) =>
  /^(app|core|db|server|scripts)\//.test(file) &&
  !isTest(file) &&
  !file.endsWith('.d.ts') &&
  !/^db\/(migrations|seed-data)\//.test(file)
// This script names the patterns it counts: it is not counted.
const production = files.filter((file) => isProduction(file) && file !== 'scripts/shape-counts.ts')
const text = new Map(production.map((file) => [file, readFileSync(file, 'utf8')]))

// --- The syntax trees ----------------------------------------------------------------------
const api = new API({ cwd: root })
const snapshot = api.updateSnapshot({ openProject: 'tsconfig.json' } as never)
const project = snapshot.getProjects()[0]
if (!project) throw new Error('tsconfig.json: no project')
const trees = new Map<string, SourceFile>()
for (const file of production) {
  const tree = project.program.getSourceFile(file)
  if (tree) trees.set(file, tree)
}

function walk(node: Node, visit: (node: Node) => void) {
  visit(node)
  node.forEachChild((child) => {
    walk(child, visit)
  })
}
const lineOf = (tree: SourceFile, position: number) => tree.getLineAndCharacterOfPosition(position).line + 1

// --- Helpers ---------------------------------------------------------------------------------
type Row = { concern: string; count: string; rule: string; detail?: string[] }
const rows: Row[] = []
const add = (concern: string, count: number | string, rule: string, detail?: string[]) => {
  rows.push({ concern, count: String(count), rule, ...(detail ? { detail } : {}) })
}
/** Production files (optionally only some) whose text matches a pattern, and the matches. */
function occurrences(pattern: RegExp, only: (file: string) => boolean = () => true) {
  const found: { file: string; count: number }[] = []
  for (const [file, source] of text) {
    if (!only(file)) continue
    const count = source.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))?.length ?? 0
    if (count > 0) found.push({ file, count })
  }
  return { files: found.length, total: found.reduce((sum, { count }) => sum + count, 0), found }
}
const described = (found: { file: string; count: number }[]) =>
  found.map(({ file, count }) => `${file} (${count})`)
const inRoutes = (file: string) => file.startsWith('app/routes/')
const outsideCore = (file: string) => /^(app|server)\//.test(file)

// --- Errors into answers ---------------------------------------------------------------------
// A file of the web layer (app/, server/) that looks at an error to choose the answer: it calls
// isAppError / databaseUnavailableError / toPublicError / httpStatusOf / errorHeaders / apiError
// or reads HTTP_STATUS (the helpers' own module, app/lib/http-errors.ts, included).
const mapping = occurrences(
  /\b(isAppError|databaseUnavailableError|toPublicError|httpStatusOf|errorHeaders|apiError)\(|\bHTTP_STATUS\[/,
  outsideCore,
)
add(
  'files turning errors into HTTP answers (app/, server/)',
  mapping.files,
  'calls isAppError/databaseUnavailableError/toPublicError/httpStatusOf/errorHeaders/apiError or reads HTTP_STATUS[',
  described(mapping.found),
)
const formFailure = occurrences(/\bformFailure\(/, inRoutes)
add(
  'route files reporting failure with formFailure',
  formFailure.files,
  'app/routes files calling formFailure(',
  described(formFailure.found),
)
const actionFailure = occurrences(/\bactionFailure\(/, inRoutes)
add(
  'route files reporting failure with actionFailure',
  actionFailure.files,
  'app/routes files calling actionFailure(',
  described(actionFailure.found),
)
const handBuilt = occurrences(/\b(isAppError|toPublicError)\(/, inRoutes)
add(
  'route files with hand-built isAppError/toPublicError',
  handBuilt.files,
  'app/routes files calling isAppError( or toPublicError(',
  described(handBuilt.found),
)
const catches = occurrences(/\.catch\(throwRouteError\)/)
add(
  '.catch(throwRouteError)',
  catches.total,
  `occurrences, in ${catches.files} files`,
  described(catches.found),
)

// --- Success feedback ------------------------------------------------------------------------
// The notice components themselves (toast.tsx, failure-alert.tsx) are where an alert belongs.
const noticeComponents = new Set(['app/components/toast.tsx', 'app/components/failure-alert.tsx'])
// A call to redirect*(…) whose URL argument's text has `?key=` or `&key=` for a key that is not
// navigation (where to go back, which tab, which page) nor a page's state (ADR 010: the
// check-your-e-mail screen, an expired link explained): a notice carried in the query string.
// (A redirect to a URL built elsewhere and passed as a variable is missed.)
const NAVIGATION = new Set(['redirectTo', 'mode', 'cursor', 'q', 'token', 'tab'])
const PAGE_STATES = new Set(['sent', 'reset'])
const noticeRedirects: string[] = []
const pageStates: string[] = []
const noticeKeys = new Set<string>()
for (const [file, tree] of trees) {
  walk(tree, (node) => {
    if (node.kind !== SyntaxKind.CallExpression) return
    const call = node as Node & { expression: Node; arguments: readonly Node[] }
    if (call.expression.kind !== SyntaxKind.Identifier) return
    if (!/^redirect/.test(call.expression.getText(tree))) return
    // redirectWithNotice(context, url, …): the URL is the second argument.
    const name = call.expression.getText(tree)
    const first = call.arguments[name === 'redirectWithNotice' ? 1 : 0]
    if (!first) return
    const keys = [...first.getText(tree).matchAll(/[?&]([A-Za-z]+)=/g)]
      .map((match) => match[1] as string)
      .filter((key) => !NAVIGATION.has(key))
    const where = `${file}:${lineOf(tree, call.getStart(tree))}`
    if (keys.length > 0 && keys.every((key) => PAGE_STATES.has(key))) {
      pageStates.push(`${where} ?${keys.join('&')}`)
      return
    }
    if (keys.length === 0) return
    for (const key of keys) noticeKeys.add(key)
    noticeRedirects.push(`${where} ?${keys.join('&')}`)
  })
}
add(
  'redirects with a query-string notice',
  noticeRedirects.length,
  `redirect*(…) whose URL has ?key= (keys: ${[...noticeKeys].sort().join(', ')})`,
  noticeRedirects,
)
add(
  'redirects to a page state in the query string',
  pageStates.length,
  `?${[...PAGE_STATES].join('=, ?')}= (the check-your-e-mail screen, an expired link explained; ADR 010)`,
  pageStates,
)
const flash = occurrences(/\bflashCookie\(/, inRoutes)
add(
  'route files setting the flash cookie by hand',
  flash.files,
  `app/routes files calling flashCookie( (${flash.total} calls)`,
  described(flash.found),
)
const noticed = occurrences(/\bredirectWithNotice\(/, (file) => file.startsWith('app/routes/'))
add(
  'route files ending a change with redirectWithNotice',
  noticed.files,
  `app/routes files calling redirectWithNotice( (${noticed.total} calls)`,
  described(noticed.found),
)
// An inline success message a page shows itself (outside the notice component).
const statuses = occurrences(/role="status"/, (file) => file.endsWith('.tsx') && !noticeComponents.has(file))
add(
  'inline role="status" blocks',
  statuses.total,
  `role="status" in .tsx outside toast.tsx and failure-alert.tsx, in ${statuses.files} files`,
  described(statuses.found),
)
// A refusal or warning a page writes itself (outside the toasts and FormAlert, the one alert block).
const alerts = occurrences(
  /role="alert"/,
  (file) => file.endsWith('.tsx') && !noticeComponents.has(file) && file !== 'app/components/form-alert.tsx',
)
add(
  'inline role="alert" blocks',
  alerts.total,
  `role="alert" in .tsx outside toast.tsx, failure-alert.tsx and form-alert.tsx, in ${alerts.files} files`,
  described(alerts.found),
)

// --- Form fields -----------------------------------------------------------------------------
const fieldComponents: string[] = []
for (const [file, tree] of trees) {
  if (!file.startsWith('app/components/')) continue
  for (const statement of tree.statements) {
    const named = statement as Node & { name?: Node }
    if (statement.kind !== SyntaxKind.FunctionDeclaration || !named.name) continue
    const name = named.name.getText(tree)
    if (/^[A-Z]\w*Fields?$/.test(name)) fieldComponents.push(`${file} ${name}`)
  }
}
add(
  'field components',
  fieldComponents.length,
  'function components in app/components named *Field / *Fields',
  fieldComponents,
)
// The kit is FormField (label, hint, error, aria wiring); a field component that does not render
// through it draws its own label and error.
const ownFields = fieldComponents.filter((entry) => {
  const file = entry.split(' ')[0] as string
  return file !== 'app/components/form-field.tsx' && !/\bFormField\b/.test(text.get(file) ?? '')
})
add(
  'field components not built on FormField',
  ownFields.length,
  'of the above, in files that do not render FormField',
  ownFields,
)
const casts = occurrences(/\bas 'errors\./)
add("`as 'errors.…'` casts", casts.total, `occurrences, in ${casts.files} files`, described(casts.found))
// A field's problem key cast into a template key (`t(\`quote.errors.${key as 'invalid'}\`)`): the
// field kit's `errorTextIn` (app/components/error-text.ts) is where that one cast lives.
const fieldCasts = occurrences(/\.(?:errors|Errors|reasons)\.\$\{[^}]+ as '[A-Za-z]+'\}/)
add(
  'field-error key casts',
  fieldCasts.total,
  `\`…errors.\${key as '…'}\` occurrences, in ${fieldCasts.files} files`,
  described(fieldCasts.found),
)

// --- State machines --------------------------------------------------------------------------
const tables = occurrences(/^export const [A-Z_]+_MACHINE\b/m)
add('hand-written transition tables', tables.total, 'export const *_MACHINE', described(tables.found))
// The body of a transition function reads the rule's `from` list: counting those readings counts
// the implementations, whatever the exported names bound to them.
const transitions = occurrences(/\brule\.from\.includes\(/)
add(
  'transition functions',
  transitions.total,
  'implementations: `rule.from.includes(` (a table read to answer an event)',
  described(transitions.found),
)
const applies = occurrences(/\bfunction apply\w*Event\b/)
add(
  'apply*Event functions',
  applies.total,
  'function apply…Event (since issue 28 each binds the one applyEvent to its aggregate)',
  described(applies.found),
)
const aggregates = occurrences(/\bconst \w+:\s*Aggregate</)
add(
  'aggregates moved by applyEvent',
  aggregates.total,
  'const …: Aggregate<…> = { declarations',
  described(aggregates.found),
)
const versions = occurrences(/\bversion\}? \+ 1\b/)
add(
  'inline version + 1',
  versions.total,
  `\`…version + 1\` or sql\`\${t.version} + 1\`, in ${versions.files} files`,
  described(versions.found),
)

// --- Core areas ------------------------------------------------------------------------------
/** The repository path an import specifier points at, or null for a package. */
function target(from: string, specifier: string): string | null {
  if (specifier.startsWith('#')) return specifier.slice(1)
  if (specifier.startsWith('.'))
    return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))
  return null
}
const areaOf = (file: string | null) => (file?.startsWith('core/') ? (file.split('/')[1] ?? null) : null)
type Edge = { from: string; to: string; runtime: boolean }
const edges: Edge[] = []
for (const [file, tree] of trees) {
  walk(tree, (node) => {
    let specifier: Node | undefined
    let runtime = true
    if (node.kind === SyntaxKind.ImportDeclaration) {
      const declaration = node as Node & {
        moduleSpecifier: Node
        importClause?: Node & {
          phaseModifier?: SyntaxKind
          name?: Node
          namedBindings?: Node & { elements?: readonly (Node & { isTypeOnly: boolean })[] }
        }
      }
      specifier = declaration.moduleSpecifier
      const clause = declaration.importClause
      // Type-only: `import type …`, or only `{ type A, type B }` with no default binding.
      if (clause?.phaseModifier === SyntaxKind.TypeKeyword) runtime = false
      else if (
        clause &&
        !clause.name &&
        clause.namedBindings?.elements?.every((element) => element.isTypeOnly)
      )
        runtime = false
    } else if (node.kind === SyntaxKind.ExportDeclaration) {
      const declaration = node as Node & { moduleSpecifier?: Node; isTypeOnly: boolean }
      specifier = declaration.moduleSpecifier
      runtime = !declaration.isTypeOnly
    } else if (node.kind === SyntaxKind.CallExpression) {
      const call = node as Node & { expression: Node; arguments: readonly Node[] }
      if (call.expression.kind === SyntaxKind.ImportKeyword) specifier = call.arguments[0]
    }
    if (!specifier || specifier.kind !== SyntaxKind.StringLiteral) return
    const to = target(file, specifier.getText(tree).slice(1, -1))
    if (to) edges.push({ from: file, to, runtime })
  })
}
const areaEdges = new Map<string, Set<string>>()
for (const { from, to, runtime } of edges) {
  const [a, b] = [areaOf(from), areaOf(to)]
  if (!runtime || !a || !b || a === b) continue
  if (!areaEdges.has(a)) areaEdges.set(a, new Set())
  areaEdges.get(a)?.add(b)
}
const mutual: string[] = []
for (const [a, targets] of areaEdges)
  for (const b of targets) if (a < b && areaEdges.get(b)?.has(a)) mutual.push(`${a}↔${b}`)
// Strongly connected components (Tarjan): areas that reach each other through any path.
const components: string[][] = []
{
  let index = 0
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const visit = (area: string) => {
    order.set(area, index)
    low.set(area, index++)
    stack.push(area)
    onStack.add(area)
    for (const next of areaEdges.get(area) ?? []) {
      if (!order.has(next)) {
        visit(next)
        low.set(area, Math.min(low.get(area) ?? 0, low.get(next) ?? 0))
      } else if (onStack.has(next)) low.set(area, Math.min(low.get(area) ?? 0, order.get(next) ?? 0))
    }
    if (low.get(area) === order.get(area)) {
      const component: string[] = []
      let top: string | undefined
      do {
        top = stack.pop()
        if (top) {
          onStack.delete(top)
          component.push(top)
        }
      } while (top && top !== area)
      if (component.length > 1) components.push(component.sort())
    }
  }
  for (const area of [...areaEdges.keys()].sort()) if (!order.has(area)) visit(area)
}
add(
  'runtime import cycles between core areas (pairs)',
  mutual.length,
  'core/<a> imports core/<b> and back, type-only imports left out',
  mutual.sort(),
)
add(
  'areas caught in a cycle (largest group)',
  Math.max(0, ...components.map((c) => c.length)),
  `strongly connected groups of core areas: ${components.map((c) => c.length).join(', ') || 'none'}`,
  components.map((c) => c.join(' ')),
)
const dbToCore = edges.filter(({ from, to }) => from.startsWith('db/') && to.startsWith('core/'))
add(
  'imports from db/ into core/',
  dbToCore.length,
  `import statements (type-only included), in ${new Set(dbToCore.map((e) => e.from)).size} files`,
  dbToCore.map((e) => `${e.from} → ${e.to}`),
)
// staff-policy.ts has moved to core/shared (ADR 043): its old place counts no importer.
for (const kernel of ['staff-policy.ts', 'order-context.ts'].map((file) => `core/orders/${file}`)) {
  const users = new Set(
    edges.filter((e) => e.to === kernel && !e.from.startsWith('core/orders/')).map((e) => e.from),
  )
  add(
    `files outside core/orders importing ${path.basename(kernel)}`,
    users.size,
    'production files, any import',
    [...users].sort(),
  )
}

// --- Size ------------------------------------------------------------------------------------
// Every function (declaration, expression, arrow, method, accessor, constructor), nested ones
// counted on their own: lines from its first token to its closing one. Seed code (core/seed/seed-database.ts,
// scripts/lib/*-seed.ts) is left out with the seed data, as the goal says.
const isSeed = (file: string) =>
  file === 'core/seed/seed-database.ts' || /^scripts\/lib\/[\w-]*seed\.ts$/.test(file)
const FUNCTIONS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.Constructor,
])
function nameOf(node: Node, tree: SourceFile): string {
  const own = (node as Node & { name?: Node }).name
  if (own) return own.getText(tree)
  const parent = node.parent as Node & { name?: Node }
  if (parent && 'name' in parent && parent.name && parent.kind !== SyntaxKind.CallExpression)
    return parent.name.getText(tree)
  return '(anonymous)'
}
const lengths: { where: string; lines: number }[] = []
for (const [file, tree] of trees) {
  if (isSeed(file)) continue
  walk(tree, (node) => {
    if (!FUNCTIONS.has(node.kind)) return
    const lines = lineOf(tree, node.getEnd()) - lineOf(tree, node.getStart(tree)) + 1
    lengths.push({ where: `${file}:${lineOf(tree, node.getStart(tree))} ${nameOf(node, tree)}`, lines })
  })
}
lengths.sort((a, b) => b.lines - a.lines)
const over = (limit: number) => lengths.filter(({ lines }) => lines > limit)
/** How many of them in each top-level folder: `app 40, core 30…`. */
const byFolder = (limit: number) =>
  Object.entries(
    Object.groupBy(over(limit), (f) => f.where.split('/')[0] as string) as Record<string, unknown[]>,
  )
    .map(([folder, found]) => `${folder} ${found.length}`)
    .join(', ')
add(
  'functions over 80 lines',
  over(80).length,
  `production files but seed code, TypeScript syntax tree: ${byFolder(80)}`,
  over(80).map((f) => `${f.lines} ${f.where}`),
)
add(
  'functions over 100 lines',
  over(100).length,
  `production files but seed code: ${byFolder(100)}`,
  over(100).map((f) => `${f.lines} ${f.where}`),
)
const longest = lengths.slice(0, 6).map((f) => `${f.where.split(' ')[1]} ${f.lines}`)
add('longest functions', longest.join(', '), 'name and lines')

// --- Repeated --------------------------------------------------------------------------------
const uuid = occurrences(/\[0-9a-f(A-F)?\]\{8\}-\[0-9a-f(A-F)?\]\{4\}/i)
add(
  'UUID regex copies',
  uuid.total,
  `a [0-9a-f]{8}-[0-9a-f]{4}… pattern, in ${uuid.files} files`,
  described(uuid.found),
)
const requireActor = occurrences(/\bfunction requireActor\b/)
add(
  'requireActor copies',
  requireActor.total,
  'function requireActor declarations',
  described(requireActor.found),
)

// A page route under app/routes/admin/ whose own middleware repeats the admin guard that its
// layout (app/routes/admin/layout.tsx) already runs for the whole branch.
const guards = occurrences(
  /export const middleware[^\n]*requireAdminMiddleware/,
  (file) => file.startsWith('app/routes/admin/') && !/layout\.tsx$/.test(file),
)
add(
  'admin pages repeating the layout guard',
  guards.files,
  'own middleware = [requireAdminMiddleware]',
  described(guards.found),
)
// A photo or file answer that does its own conditional GET (ETag → 304).
const notModified = occurrences(/status: 304/)
add(
  'files answering 304 themselves',
  notModified.files,
  'new Response(null, { status: 304 … })',
  described(notModified.found),
)

api.close()

// --- The table -------------------------------------------------------------------------------
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
console.log(
  `shape counts at ${commit} (${production.length} production files; \`--list\` shows what is counted)\n`,
)
const width = Math.max(...rows.map((row) => row.concern.length))
const countWidth = Math.max(...rows.map((row) => Math.min(row.count.length, 8)))
console.log(`| ${'concern'.padEnd(width)} | ${'count'.padStart(countWidth)} | how it is counted |`)
console.log(`|${'-'.repeat(width + 2)}|${'-'.repeat(countWidth + 2)}|---|`)
for (const row of rows) {
  console.log(`| ${row.concern.padEnd(width)} | ${row.count.padStart(countWidth)} | ${row.rule} |`)
  if (list && row.detail) for (const line of row.detail) console.log(`    ${line}`)
}
