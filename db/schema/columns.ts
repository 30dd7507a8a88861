import { customType } from 'drizzle-orm/pg-core'

/** Binary content (photos, logos), as bytes in and out. Not exported by the schema barrel. */
export const bytea = customType<{ data: Uint8Array; driverData: Buffer }>({
  dataType: () => 'bytea',
  toDriver: (value) => Buffer.from(value),
  fromDriver: (value) => new Uint8Array(value),
})
