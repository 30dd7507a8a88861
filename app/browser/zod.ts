// What browser code gets for `import … from 'zod'` (vite.config.ts): zod itself, told first not
// to probe for `new Function`, which the strict CSP refuses and the browser then reports as a
// violation (Chrome's Issues panel; Lighthouse's best practices) even though zod catches it.
import { config } from 'zod'

config({ jitless: true })

export * from 'zod'
export { default } from 'zod'
