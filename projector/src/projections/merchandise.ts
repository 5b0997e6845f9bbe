import { defineProjection } from '../projection.ts';

// The catalogue each facility sells from: an item's row as its stream left it. Every event of the
// item carries the stock after it, so the row copies the write side's count and never adds up.
export const merchandiseProjection = defineProjection({
  name: 'merchandise',
  tables: ['merchandise_items'],
  canHandle: [
    'merchandise_item_added',
    'merchandise_item_changed',
    'merchandise_restocked',
    'merchandise_stock_adjusted',
    'merchandise_sold',
    'merchandise_sale_undone',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'merchandise_item_added': {
        const { itemId, facilityId, name, price, taxable, stock } = event.data;
        rows.insert('merchandise_items', { id: itemId, facility_id: facilityId, name, price, taxable, stock, active: true, created_at: at, updated_at: at });
        return;
      }
      case 'merchandise_item_changed': {
        const { itemId, name, price, taxable, active } = event.data;
        await rows.update('merchandise_items', itemId, { name, price, taxable, active, updated_at: at });
        return;
      }
      case 'merchandise_restocked':
      case 'merchandise_stock_adjusted':
      case 'merchandise_sold':
      case 'merchandise_sale_undone':
        await rows.update('merchandise_items', event.data.itemId, { stock: event.data.stockAfter, updated_at: at });
        return;
    }
  },
});
