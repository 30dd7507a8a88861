import { requestContext } from '#app/context.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import type { Route } from './+types/export.ts'

/** "Download my data": the signed-in user's data as a JSON file. */
async function resource({ context }: Pick<Route.LoaderArgs, 'context'>) {
  const user = getUser(context)
  const data = await context.get(requestContext).exportAccount(user.id)
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="my-data.json"',
      'Cache-Control': 'private, no-store',
    },
  })
}

// The file, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function Export() {
  return null
}
