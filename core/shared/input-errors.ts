import { AppError } from './errors.ts'

/** One thing a schema refused (a zod issue, or one made by hand): a message key on a path. */
export type InputIssue = { readonly path: readonly PropertyKey[]; readonly message: string }

/** Conform's name for an issue's path: items[0].url. */
export function fieldNameOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => {
    if (typeof key === 'number') return `${name}[${key}]`
    return name === '' ? String(key) : `${name}.${String(key)}`
  }, '')
}

/**
 * A refused input (`schema.safeParse(input).error.issues`) as AppError `invalid`: each issue's
 * message key on its field (named by `nameOf`, Conform's names unless told), `reason` for the
 * form's message, `message` for logs.
 */
export function invalidInput(
  issues: readonly InputIssue[],
  {
    message,
    reason,
    nameOf = fieldNameOf,
  }: { message: string; reason: string; nameOf?: (path: readonly PropertyKey[]) => string },
): AppError {
  const fieldErrors: Record<string, string[]> = {}
  for (const issue of issues) {
    const name = nameOf(issue.path)
    fieldErrors[name] = [...(fieldErrors[name] ?? []), issue.message]
  }
  return new AppError('invalid', message, { reason, fieldErrors })
}
