import { useRouteLoaderData } from 'react-router'
import type { loader } from '#app/root.tsx'

/** The root loader's data: preferences and public settings. Undefined if the root loader failed. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}
