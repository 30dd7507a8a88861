import { createContext, useContext } from 'react'

// Set on the server only: browsers hide the nonce attribute from scripts after parsing.
const NonceContext = createContext<string | undefined>(undefined)

export const NonceProvider = NonceContext.Provider

export function useNonce(): string | undefined {
  return useContext(NonceContext)
}
