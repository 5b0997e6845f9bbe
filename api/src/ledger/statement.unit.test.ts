import { writeFile } from 'node:fs/promises';
import type { Ledger } from '@storage/contracts/ledger';
import { fromCents } from '@storage/contracts/money';
import { describe, expect, it } from 'vitest';
import { statementFileName, statementPdf } from './statement.ts';

/** The PDF's bytes, as pdfkit streams them. */
async function bytesOf(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Two years of monthly rent, each paid: enough rows for more than one page. */
function longLedger(): Ledger {
  const entries: Ledger['entries'] = [];
  let balance = 0n;
  for (let month = 0; month < 24; month++) {
    const date = `${2025 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`;
    balance += 15_000n;
    entries.push({
      id: `c${month}`,
      date,
      kind: 'charge',
      description: `Invoice INV-${month} — Rent for month ${month + 1}, unit A-101`,
      invoiceNumber: `INV-${month}`,
      amount: '150.00',
      balance: fromCents(balance),
    });
    balance -= 15_000n;
    entries.push({
      id: `p${month}`,
      date,
      kind: 'payment',
      description: `Payment — cash, invoice INV-${month}`,
      invoiceNumber: `INV-${month}`,
      amount: '-150.00',
      balance: fromCents(balance),
    });
  }
  entries.push({
    id: 'late',
    date: '2026-12-12',
    kind: 'late_fee',
    description: 'Late fee — invoice INV-23',
    invoiceNumber: 'INV-23',
    amount: '25.00',
    balance: '25.00',
  });
  return {
    customer: { id: 'x', firstName: 'Ada', lastName: "O'Lovelace", address: '12 Analytical Row, Springfield' },
    asOf: '2026-12-31',
    from: null,
    openingBalance: '0.00',
    entries,
    balance: '25.00',
  };
}

describe('the statement PDF', () => {
  it('writes every entry over as many pages as it takes, named by the renter and the day', async () => {
    const ledger = longLedger();
    const bytes = await bytesOf(await statementPdf(ledger, { name: 'Riverside Self Storage', phone: '(503) 555-0100', email: 'desk@example.com' }));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1').match(/\/Type \/Page\b/g)?.length).toBeGreaterThan(1);
    expect(statementFileName(ledger)).toBe('statement-OLovelace-2026-12-31.pdf');
    if (process.env.STATEMENT_PDF_OUT) await writeFile(process.env.STATEMENT_PDF_OUT, bytes);
  });
});
