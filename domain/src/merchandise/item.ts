import type { DomainEvent, EventData } from '@storage/contracts/events';

/** A sale of the item as its stream recorded it: what the sale's invoice bills (undone: put back, billed nowhere). */
export type ItemSale = Pick<EventData<'merchandise_sold'>, 'quantity' | 'customerId' | 'invoiceId' | 'name' | 'price' | 'taxable'> & { undone: boolean };

export type MerchandiseState =
  | { status: 'none' }
  | {
      status: 'current';
      itemId: string;
      facilityId: string;
      name: string;
      price: string;
      taxable: boolean;
      active: boolean;
      /** null: not counted (a service fee). */
      stock: number | null;
      /** By sale id: a repeat of a sale is recognised by it. */
      sales: Readonly<Record<string, ItemSale>>;
    };

export const initialMerchandiseState: MerchandiseState = { status: 'none' };

export function evolveMerchandise(state: MerchandiseState, event: DomainEvent): MerchandiseState {
  if (event.type === 'merchandise_item_added') {
    const { itemId, facilityId, name, price, taxable, stock } = event.data;
    return { status: 'current', itemId, facilityId, name, price, taxable, active: true, stock, sales: {} };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'merchandise_item_changed': {
      const { name, price, taxable, active } = event.data;
      return { ...state, name, price, taxable, active };
    }
    case 'merchandise_restocked':
    case 'merchandise_stock_adjusted':
      return { ...state, stock: event.data.stockAfter };
    case 'merchandise_sold': {
      const { saleId, quantity, customerId, invoiceId, name, price, taxable, stockAfter } = event.data;
      return { ...state, stock: stockAfter, sales: { ...state.sales, [saleId]: { quantity, customerId, invoiceId, name, price, taxable, undone: false } } };
    }
    case 'merchandise_sale_undone': {
      const sale = state.sales[event.data.saleId];
      if (!sale) return state;
      return { ...state, stock: event.data.stockAfter, sales: { ...state.sales, [event.data.saleId]: { ...sale, undone: true } } };
    }
    default:
      return state;
  }
}

export const merchandiseAggregate = { initial: initialMerchandiseState, evolve: evolveMerchandise };
