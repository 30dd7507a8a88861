import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { requestItems } from './orders.ts'
import { shipments } from './shipments.ts'

// The customs declaration of a shipment (issue 30; core/shipping/customs-declaration.ts): the
// CN22/CN23 data, one line per item, filled from the paid invoice lines. The customer corrects the
// descriptions (in English, as customs wants them) and confirms it; staff add HS codes; it is
// locked once the shipment is packed. Values are the prices paid: nobody edits them. Its history
// rows are in order_events (entity `customs_declaration`, id = the shipment's).

export const customsDeclarations = pgTable(
  'customs_declarations',
  {
    id: uuid().primaryKey().defaultRandom(),
    shipmentId: uuid()
      .notNull()
      .unique()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    // The customer's review: who confirmed the lines as they are (cleared when a description
    // changes). Not a foreign key: the history stays when an account goes.
    confirmedBy: text(),
    confirmedAt: timestamp({ withTimezone: true }),
    version: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'customs_declarations_confirmed_check',
      sql`(${table.confirmedBy} is null) = (${table.confirmedAt} is null)`,
    ),
    check('customs_declarations_version_check', sql`${table.version} >= 0`),
  ],
)

/** One item of the shipment as declared. */
export const customsDeclarationLines = pgTable(
  'customs_declaration_lines',
  {
    id: uuid().primaryKey().defaultRandom(),
    declarationId: uuid()
      .notNull()
      .references(() => customsDeclarations.id, { onDelete: 'cascade' }),
    // The item it declares (null if the item row goes: the line stays as declared).
    itemId: uuid().references(() => requestItems.id, { onDelete: 'set null' }),
    position: smallint().notNull(),
    // In English, as customs wants it ("Anime figure, PVC"): never vague ("gift", "goods"). Null
    // until someone writes one (staff may leave it to the customer; confirming needs them all).
    description: text(),
    quantity: integer().notNull(),
    // Whole yen: the price paid for the item (its paid invoice line), never lowered.
    valueJpy: integer().notNull(),
    // Net weight in grams: the warehouse's weight of the item (null if it was never weighed).
    netWeightG: integer(),
    // Digits only (6 to 10), when staff know it; shown with dots (9503.00).
    hsCode: text(),
    originCountry: text().notNull().default('JP'),
  },
  (table) => [
    unique('customs_declaration_lines_position_key').on(table.declarationId, table.position),
    index('customs_declaration_lines_item_idx').on(table.itemId),
    check(
      'customs_declaration_lines_description_check',
      sql`char_length(${table.description}) between 1 and 120`,
    ),
    check('customs_declaration_lines_quantity_check', sql`${table.quantity} between 1 and 9999`),
    check('customs_declaration_lines_value_check', sql`${table.valueJpy} >= 0`),
    check('customs_declaration_lines_weight_check', sql`${table.netWeightG} > 0`),
    check('customs_declaration_lines_hs_check', sql`${table.hsCode} ~ '^[0-9]{6,10}$'`),
    check('customs_declaration_lines_origin_check', sql`${table.originCountry} ~ '^[A-Z]{2}$'`),
  ],
)

export type CustomsDeclarationLineRow = typeof customsDeclarationLines.$inferSelect
