/**
 * The store logo rules the browser reads too (the editor's file input and its hint); the checks
 * themselves are in ./logos.ts (server only: sharp). Isomorphic.
 */

/** Largest upload accepted. */
export const MAX_LOGO_BYTES = 512 * 1024

export const LOGO_INPUT_ACCEPT = 'image/png,image/svg+xml,.png,.svg'

export const LOGO_REFUSALS = ['logoEmpty', 'logoTooLarge', 'logoType', 'logoCorrupt', 'logoUnsafe'] as const
export type LogoRefusal = (typeof LOGO_REFUSALS)[number]
