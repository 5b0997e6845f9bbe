import type { DomainEvent } from '@storage/contracts/events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideMerchandise, type MerchandiseCommand, type SellMerchandise } from './businessLogic.ts';
import { evolveMerchandise, initialMerchandiseState } from './item.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: MerchandiseCommand) => decideMerchandise(command, events.reduce(evolveMerchandise, initialMerchandiseState)),
});

const itemId = '4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const facilityId = '0b6a4d0e-3f55-4d8e-9c1e-2a8f0c1d9e01';
const otherFacilityId = '1c7b5e1f-4a66-4e9f-8d2f-3b9a1d2e0f12';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const saleId = '8d2e3f4a-6b7c-4d8e-9f0a-1b2c3d4e5f60';
const invoiceId = '9e3f4a5b-7c8d-4e9f-8a1b-2c3d4e5f6071';

const added = (stock: number | null = 2): DomainEvent => ({
  type: 'merchandise_item_added',
  data: { itemId, facilityId, name: 'Moving box', price: '3.50', taxable: true, stock },
});
const sell = (quantity: number, overrides: Partial<SellMerchandise> = {}): SellMerchandise => ({
  type: 'SellMerchandise',
  itemId,
  facilityId,
  saleId,
  quantity,
  customerId,
  invoiceId,
  ...overrides,
});
const sold = (quantity: number, stockAfter: number | null, id = saleId): DomainEvent => ({
  type: 'merchandise_sold',
  data: { itemId, facilityId, saleId: id, quantity, customerId, invoiceId, name: 'Moving box', price: '3.50', taxable: true, stockAfter },
});

describe('add and change an item', () => {
  it('adds an item with its stock', () => {
    expect(given().when({ type: 'AddMerchandise', itemId, facilityId, details: { name: 'Moving box', price: '3.50', taxable: true }, stock: 2 })).toEqual([
      added(2),
    ]);
  });

  it('refuses to add an item twice', () => {
    expect(() => given(added()).when({ type: 'AddMerchandise', itemId, facilityId, details: { name: 'X', price: '1.00', taxable: false }, stock: 0 })).toThrow(
      ConflictError,
    );
  });

  it('records a change, and nothing when nothing changed', () => {
    const details = { name: 'Moving box', price: '3.50', taxable: true };
    expect(given(added()).when({ type: 'ChangeMerchandise', itemId, details, active: true })).toEqual([]);
    expect(given(added()).when({ type: 'ChangeMerchandise', itemId, details, active: false })).toEqual([
      { type: 'merchandise_item_changed', data: { itemId, facilityId, ...details, active: false } },
    ]);
  });

  it('refuses to change an item that does not exist', () => {
    expect(() => given().when({ type: 'ChangeMerchandise', itemId, details: { name: 'X', price: '1.00', taxable: false }, active: true })).toThrow(
      NotFoundError,
    );
  });
});

describe('stock', () => {
  it('restocks on top of what is on hand', () => {
    expect(given(added(2)).when({ type: 'RestockMerchandise', itemId, quantity: 10 })).toEqual([
      { type: 'merchandise_restocked', data: { itemId, facilityId, quantity: 10, stockAfter: 12 } },
    ]);
  });

  it('corrects the count with a reason, and records nothing when the count agrees', () => {
    expect(given(added(2)).when({ type: 'AdjustMerchandiseStock', itemId, stock: 1, reason: ' Damaged ' })).toEqual([
      { type: 'merchandise_stock_adjusted', data: { itemId, facilityId, stockBefore: 2, stockAfter: 1, reason: 'Damaged' } },
    ]);
    expect(given(added(2)).when({ type: 'AdjustMerchandiseStock', itemId, stock: 2, reason: 'Counted' })).toEqual([]);
    expect(() => given(added(2)).when({ type: 'AdjustMerchandiseStock', itemId, stock: 1, reason: '  ' })).toThrow(DomainRuleError);
  });

  it('refuses to restock or count an item with no stock (a service fee)', () => {
    expect(() => given(added(null)).when({ type: 'RestockMerchandise', itemId, quantity: 1 })).toThrow(ConflictError);
    expect(() => given(added(null)).when({ type: 'AdjustMerchandiseStock', itemId, stock: 1, reason: 'x' })).toThrow(ConflictError);
  });
});

describe('sell', () => {
  it('sells what is on hand and records the stock after', () => {
    expect(given(added(2)).when(sell(2))).toEqual([sold(2, 0)]);
  });

  it('refuses a sale that would take the stock below 0, naming the item and what is left', () => {
    expect(() => given(added(2)).when(sell(3))).toThrow('Not enough Moving box in stock: only 2 left');
    expect(() => given(added(2), sold(2, 0, '1f2e3d4c-5b6a-4978-8877-665544332211')).when(sell(1))).toThrow('Not enough Moving box in stock: none left');
  });

  it('never takes the stock below 0, whatever the stock and the quantity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 999 }), (stock, quantity) => {
        try {
          const [event] = given(added(stock)).when(sell(quantity));
          expect(event?.type === 'merchandise_sold' && event.data.stockAfter).toBe(stock - quantity);
          expect(quantity).toBeLessThanOrEqual(stock);
        } catch (error) {
          expect(error).toBeInstanceOf(ConflictError);
          expect(quantity).toBeGreaterThan(stock);
        }
      }),
    );
  });

  it('sells an item with no stock (a service fee) in any quantity', () => {
    expect(given(added(null)).when(sell(40))).toEqual([sold(40, null)]);
  });

  it('sells nothing twice for the same sale (a retry, a double click)', () => {
    expect(given(added(2), sold(1, 1)).when(sell(1))).toEqual([]);
  });

  it('refuses a retired item and an item of another facility', () => {
    const retired: DomainEvent = {
      type: 'merchandise_item_changed',
      data: { itemId, facilityId, name: 'Moving box', price: '3.50', taxable: true, active: false },
    };
    expect(() => given(added(), retired).when(sell(1))).toThrow(ConflictError);
    expect(() => given(added()).when(sell(1, { facilityId: otherFacilityId }))).toThrow(DomainRuleError);
  });

  it('undoes a sale: the quantity goes back on the shelf, once', () => {
    const undone: DomainEvent = {
      type: 'merchandise_sale_undone',
      data: { itemId, facilityId, saleId, quantity: 2, stockAfter: 2, reason: 'Sale not completed' },
    };
    expect(given(added(2), sold(2, 0)).when({ type: 'UndoMerchandiseSale', itemId, saleId, reason: 'Sale not completed' })).toEqual([undone]);
    expect(given(added(2), sold(2, 0), undone).when({ type: 'UndoMerchandiseSale', itemId, saleId, reason: 'again' })).toEqual([]);
    // Undone, the same sale may be made again (a retry that finds the stock back).
    expect(given(added(2), sold(2, 0), undone).when(sell(2))).toEqual([sold(2, 0)]);
  });
});
