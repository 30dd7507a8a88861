import { createContext, useContext } from 'react'

// The server provides the response's nonce (entry.server.tsx); the browser reads it back from the
// page's own scripts (entry.client.tsx), where the attribute reads "" after parsing but the
// `nonce` property keeps it. An element React creates in the browser (a <style> re-rendered after
// a guard page's client render) then carries it, and the CSP lets it apply.
const NonceContext = createContext<string>('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}

/** The page's CSP nonce as the browser keeps it ("" in development, where there is none). */
export function browserNonce(): string {
  return document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? ''
}
