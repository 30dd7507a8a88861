import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** False during the server render and hydration, true after: for no-JS fallbacks. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
