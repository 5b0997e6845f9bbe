import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { ItemSale, MerchandiseState } from './item.ts';

// One item a facility sells, on its own stream: its catalogue entry, its stock, and each sale of
// it. The stream's revision decides a race: two desks selling the last box, one of them wins.

export type ItemDetails = { name: string; price: string; taxable: boolean };

export type AddMerchandise = { type: 'AddMerchandise'; itemId: string; facilityId: string; details: ItemDetails; stock: number | null };
export type ChangeMerchandise = { type: 'ChangeMerchandise'; itemId: string; details: ItemDetails; active: boolean };
export type RestockMerchandise = { type: 'RestockMerchandise'; itemId: string; quantity: number };
export type AdjustMerchandiseStock = { type: 'AdjustMerchandiseStock'; itemId: string; stock: number; reason: string };
/** facilityId: the facility the sale is made at (an item of another is not sold there). */
export type SellMerchandise = {
  type: 'SellMerchandise';
  itemId: string;
  facilityId: string;
  saleId: string;
  quantity: number;
  customerId: string;
  invoiceId: string;
};
export type UndoMerchandiseSale = { type: 'UndoMerchandiseSale'; itemId: string; saleId: string; reason: string };
export type MerchandiseCommand = AddMerchandise | ChangeMerchandise | RestockMerchandise | AdjustMerchandiseStock | SellMerchandise | UndoMerchandiseSale;

type CurrentItem = Extract<MerchandiseState, { status: 'current' }>;

function existing(state: MerchandiseState): CurrentItem {
  if (state.status === 'none') throw new NotFoundError('Item not found');
  return state;
}

function counted(item: CurrentItem, field: string): number {
  if (item.stock === null) throw new ConflictError(`${item.name} has no stock to count`, field);
  return item.stock;
}

/** The sale of this item the stream holds under `saleId`, not undone; null when there is none. */
export function liveSale(state: MerchandiseState, saleId: string): ItemSale | null {
  if (state.status === 'none') return null;
  const sale = state.sales[saleId];
  return sale && !sale.undone ? sale : null;
}

export function addMerchandise(command: AddMerchandise, state: MerchandiseState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This item already exists');
  const { itemId, facilityId, details, stock } = command;
  return [{ type: 'merchandise_item_added', data: { itemId, facilityId, ...details, stock } }];
}

/** Setting what the item already is records nothing. */
export function changeMerchandise(command: ChangeMerchandise, state: MerchandiseState): DomainEvent[] {
  const item = existing(state);
  const { details, active } = command;
  if (item.name === details.name && item.price === details.price && item.taxable === details.taxable && item.active === active) return [];
  return [{ type: 'merchandise_item_changed', data: { itemId: item.itemId, facilityId: item.facilityId, ...details, active } }];
}

export function restockMerchandise(command: RestockMerchandise, state: MerchandiseState): DomainEvent[] {
  const item = existing(state);
  const stock = counted(item, 'quantity');
  const { itemId, facilityId } = item;
  return [{ type: 'merchandise_restocked', data: { itemId, facilityId, quantity: command.quantity, stockAfter: stock + command.quantity } }];
}

/** A count that finds what the stream holds records nothing. */
export function adjustMerchandiseStock(command: AdjustMerchandiseStock, state: MerchandiseState): DomainEvent[] {
  const item = existing(state);
  const stock = counted(item, 'stock');
  if (stock === command.stock) return [];
  const reason = command.reason.trim();
  if (reason === '') throw new DomainRuleError('reason: is required', 'reason');
  return [
    { type: 'merchandise_stock_adjusted', data: { itemId: item.itemId, facilityId: item.facilityId, stockBefore: stock, stockAfter: command.stock, reason } },
  ];
}

/**
 * Sells `quantity` of the item, never taking its stock below 0; a sale its stream already holds
 * (a retry, a double click) is not sold again.
 */
export function sellMerchandise(command: SellMerchandise, state: MerchandiseState): DomainEvent[] {
  const item = existing(state);
  if (liveSale(item, command.saleId)) return [];
  if (item.facilityId !== command.facilityId) throw new DomainRuleError(`${item.name} is not sold at this facility`, 'lines');
  if (!item.active) throw new ConflictError(`${item.name} is no longer sold`, 'lines');
  if (item.stock !== null && item.stock < command.quantity) {
    const left = item.stock === 0 ? 'none left' : `only ${item.stock} left`;
    throw new ConflictError(`Not enough ${item.name} in stock: ${left}`, 'lines');
  }
  const { saleId, quantity, customerId, invoiceId } = command;
  const { itemId, facilityId, name, price, taxable } = item;
  const stockAfter = item.stock === null ? null : item.stock - quantity;
  return [{ type: 'merchandise_sold', data: { itemId, facilityId, saleId, quantity, customerId, invoiceId, name, price, taxable, stockAfter } }];
}

/** Puts a sale's quantity back on the shelf; a sale the stream does not hold (or already undid) records nothing. */
export function undoMerchandiseSale(command: UndoMerchandiseSale, state: MerchandiseState): DomainEvent[] {
  const sale = liveSale(state, command.saleId);
  if (!sale || state.status === 'none') return [];
  const { itemId, facilityId, stock } = state;
  const stockAfter = stock === null ? null : stock + sale.quantity;
  return [
    { type: 'merchandise_sale_undone', data: { itemId, facilityId, saleId: command.saleId, quantity: sale.quantity, stockAfter, reason: command.reason } },
  ];
}

export function decideMerchandise(command: MerchandiseCommand, state: MerchandiseState): DomainEvent[] {
  switch (command.type) {
    case 'AddMerchandise':
      return addMerchandise(command, state);
    case 'ChangeMerchandise':
      return changeMerchandise(command, state);
    case 'RestockMerchandise':
      return restockMerchandise(command, state);
    case 'AdjustMerchandiseStock':
      return adjustMerchandiseStock(command, state);
    case 'SellMerchandise':
      return sellMerchandise(command, state);
    case 'UndoMerchandiseSale':
      return undoMerchandiseSale(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`Unknown merchandise command ${JSON.stringify(unknown)}`);
    }
  }
}
