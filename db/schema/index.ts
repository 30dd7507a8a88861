// The one barrel in the project: Drizzle needs the whole schema as one object.

export * from './auth.ts'
export * from './contact-messages.ts'
export * from './jobs.ts'
export * from './mfa.ts'
export * from './orders.ts'
export * from './outbox.ts'
export * from './reviews.ts'
export * from './role-assignments.ts'
export * from './settings.ts'
export * from './shipping-rates.ts'
export * from './stores.ts'
