import { requestContext } from '#app/context.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/export.ts'

/** "Download my data": the signed-in user's data as a JSON file. */
export async function loader({ context }: Route.LoaderArgs) {
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
