import { data } from 'react-router'
import { NotFoundPage } from '#app/components/not-found-page.tsx'
import { requestContext } from '#app/context.ts'
import { documentPage } from '#app/lib/page-kind.ts'
import type { Route } from './+types/not-found.ts'

export const handle = documentPage

// Any path no other route matches: a page with status 404, and the attempt on record.
export function loader({ request, context }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url)
  context.get(requestContext).log.warn({ event: 'page_not_found', path: pathname }, 'page not found')
  return data(null, { status: 404 })
}

export default function NotFoundRoute() {
  return <NotFoundPage />
}
