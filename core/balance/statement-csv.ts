import type { StatementRow } from './balance-service.ts'

// The balance statement as CSV (docs/decisions/050): UTF-8 with a byte-order mark (so a
// spreadsheet reads accents and ¥ right), CRLF lines, whole yen as plain integers, and every text
// cell made safe: quoted when it holds a comma, quote or line break, and a cell a spreadsheet
// would run as a formula (= + - @, a tab or carriage return first) defused with a leading quote.

export const CSV_BOM = '\uFEFF'

/** One CSV cell: numbers as they are; text quoted when needed and never a formula. */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value)
  let text = value
  if (/^[=+\-@\t\r|]/.test(text)) text = `'${text}`
  return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export type StatementCsvWords = {
  header: { date: string; kind: string; amount: string; balance: string; for: string; note: string }
  kind: (kind: StatementRow['kind']) => string
  date: (date: Date) => string
  forOf: (row: StatementRow) => string
  noteOf: (row: StatementRow) => string
}

/** The whole file: the header in the reader's language, then one line per movement, oldest first. */
export function statementCsv(rows: readonly StatementRow[], words: StatementCsvWords): string {
  const lines = [
    [
      words.header.date,
      words.header.kind,
      words.header.amount,
      words.header.balance,
      words.header.for,
      words.header.note,
    ],
    ...[...rows]
      .sort((a, b) => a.id - b.id)
      .map((row) => [
        words.date(row.createdAt),
        words.kind(row.kind),
        row.amountJpy,
        row.balanceAfterJpy,
        words.forOf(row),
        words.noteOf(row),
      ]),
  ]
  return `${CSV_BOM}${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`
}
