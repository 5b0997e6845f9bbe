import type { MerchandiseItem } from '@storage/contracts/merchandise';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

// The catalogue as the read model holds it (migration 058): the items of one facility, by name.

const ItemRow = z.object({
  id: z.string(),
  facility_id: z.string(),
  name: z.string(),
  price: z.string(),
  taxable: z.boolean(),
  stock: z.number().nullable(),
  active: z.boolean(),
});

const columns = sql.fragment`id::text, facility_id::text, name, price, taxable, stock, active`;

function toItem(row: z.infer<typeof ItemRow>): MerchandiseItem {
  return { id: row.id, facilityId: row.facility_id, name: row.name, price: row.price, taxable: row.taxable, stock: row.stock, active: row.active };
}

/** A facility's items, those still sold first, each group by name. */
export async function listMerchandise(pool: DatabasePool, facilityId: string): Promise<MerchandiseItem[]> {
  const rows = await pool.any(
    sql.type(ItemRow)`SELECT ${columns} FROM merchandise_items WHERE facility_id = ${facilityId} ORDER BY active DESC, lower(name), id`,
  );
  return rows.map(toItem);
}

export async function getMerchandiseItem(pool: DatabasePool, id: string): Promise<MerchandiseItem | null> {
  const row = await pool.maybeOne(sql.type(ItemRow)`SELECT ${columns} FROM merchandise_items WHERE id = ${id}`);
  return row ? toItem(row) : null;
}
