import type { SearchResults } from '@storage/contracts/search';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

// The console's global search: customers by name, email or phone; units by number; invoices by
// number; five of each at most, in the facility in scope.

describe('global search API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let north: string;
  let invoiceNumber: string;
  const search = async (query: string) => {
    const response = await platform.api.app.inject({ method: 'GET', url: `/api/search?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SearchResults;
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    const history = historyWriter(platform);
    const now = new Date();
    north = await history.facility(now, 'North Search');
    const south = await history.facility(now, 'South Search');
    const ada = await history.customer(now, north, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '555-010-1815' });
    await history.customer(now, south, { firstName: 'Adam', lastName: 'Southerly', email: 'adam@example.com' });
    for (let i = 0; i < 7; i++) await history.unit(now, north, `SRCH-${i}`, 'Q');
    await history.unit(now, south, 'SRCH-SOUTH', 'Q');
    const invoiceId = await history.sentInvoice(now, ada, '42.00');
    await history.settle();
    invoiceNumber = (await platform.api.app.inject({ method: 'GET', url: `/api/invoices/${invoiceId}`, headers: { cookie } })).json().invoiceNumber;
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('finds a customer by name, email and phone', async () => {
    for (const q of ['Lovelace', 'ada@example', '1815']) {
      const { customers } = await search(`q=${encodeURIComponent(q)}`);
      expect(
        customers.map((c) => c.name),
        q,
      ).toContain('Ada Lovelace');
    }
  });

  it('finds units by number, five at most, and an invoice by its number with its customer', async () => {
    const { units } = await search('q=SRCH-');
    expect(units).toHaveLength(5);
    for (const unit of units) expect(unit.unitNumber).toMatch(/^SRCH-/);
    const { invoices } = await search(`q=${encodeURIComponent(invoiceNumber)}`);
    expect(invoices).toEqual([{ id: expect.any(String), invoiceNumber, customerName: 'Ada Lovelace', amount: '42.00', status: 'sent' }]);
  });

  it('keeps to the facility in scope', async () => {
    const all = await search('q=Ada');
    expect(all.customers.map((c) => c.name).sort()).toEqual(['Ada Lovelace', 'Adam Southerly']);
    const inNorth = await search(`q=Ada&facilityId=${north}`);
    expect(inNorth.customers.map((c) => c.name)).toEqual(['Ada Lovelace']);
    expect((await search(`q=SRCH-SOUTH&facilityId=${north}`)).units).toEqual([]);
  });

  it('refuses an empty or too long query and a bad facility with 400 naming the field, and anyone signed out with 401', async () => {
    for (const [query, field] of [
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      ['', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=ada&facilityId=north', 'facilityId'],
    ] as const) {
      const response = await platform.api.app.inject({ method: 'GET', url: `/api/search?${query}`, headers: { cookie } });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe(field);
    }
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/search?q=ada' })).statusCode).toBe(401);
  });
});
