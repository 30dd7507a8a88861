import { expect, test } from 'vitest'
import type { StatementRow } from './balance-service.ts'
import { CSV_BOM, csvCell, statementCsv } from './statement-csv.ts'

test('a cell is quoted when it must be, and never runs as a formula', () => {
  expect(csvCell('plain')).toBe('plain')
  expect(csvCell(1500)).toBe('1500')
  expect(csvCell(-1500)).toBe('-1500')
  expect(csvCell('a,b')).toBe('"a,b"')
  expect(csvCell('say "hi"')).toBe('"say ""hi"""')
  expect(csvCell('two\nlines')).toBe('"two\nlines"')
  expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`)
  expect(csvCell('+1+1')).toBe("'+1+1")
  expect(csvCell('-2')).toBe("'-2")
  expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)")
  expect(csvCell('\tcmd')).toBe("'\tcmd")
  expect(csvCell('|calc')).toBe("'|calc")
})

test('the statement: BOM, header, oldest first, whole yen, hostile notes defused', () => {
  const row = (
    id: number,
    kind: StatementRow['kind'],
    amountJpy: number,
    after: number,
    reason: string | null,
  ) =>
    ({
      id,
      kind,
      amountJpy,
      balanceAfterJpy: after,
      createdAt: new Date(Date.UTC(2026, 10, id)),
      reason,
      reference: null,
      invoice: null,
      owner: null,
    }) satisfies StatementRow
  const csv = statementCsv(
    [row(2, 'adjustment', -500, 9500, '=cmd|"/c calc"!A1'), row(1, 'topup', 10000, 10000, null)],
    {
      header: {
        date: 'Fecha',
        kind: 'Movimiento',
        amount: 'Monto (JPY)',
        balance: 'Saldo (JPY)',
        for: 'Para',
        note: 'Nota',
      },
      kind: (kind) => kind,
      date: (date) => date.toISOString().slice(0, 10),
      forOf: () => '',
      noteOf: (r) => r.reason ?? '',
    },
  )
  expect(csv.startsWith(CSV_BOM)).toBe(true)
  expect(csv.slice(1).split('\r\n')).toEqual([
    'Fecha,Movimiento,Monto (JPY),Saldo (JPY),Para,Nota',
    '2026-11-01,topup,10000,10000,,',
    `2026-11-02,adjustment,-500,9500,,"'=cmd|""/c calc""!A1"`,
    '',
  ])
})
