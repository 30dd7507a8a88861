import { createContext, useContext } from 'react'

// Set on the server only. Browsers hide a nonce after parsing (the attribute reads ""), so the
// client renders "" to match what hydration finds.
const NonceContext = createContext<string>('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}
