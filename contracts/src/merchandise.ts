import { z } from 'zod';
import { InvoiceLine } from './billing.ts';
import { Id, RequiredText } from './fields.ts';
import { FeeAmount, toCents } from './money.ts';

// What a facility sells at the desk and at move-in (locks, boxes, tape, a service fee): its
// catalogue, each item on a stream of its own that keeps its stock, and a desk sale to a renter,
// which issues one invoice with a line per item (and its sales tax).

/** An item's price: more than 0.00, at most what a fee may be. */
export const MerchandisePrice = FeeAmount.refine((v) => toCents(v) > 0n, 'must be more than 0.00');

/** The most of one item a facility keeps, or sells at once. */
export const MAX_MERCHANDISE_STOCK = 100_000;
export const MAX_SALE_QUANTITY = 999;

/** Low stock: this many or fewer left (a warning on the catalogue). */
export const LOW_STOCK = 3;

const wholeNumber = (min: number, max: number, minMessage: string) =>
  z
    .number('must be a whole number')
    .int('must be a whole number')
    .min(min, minMessage)
    .max(max, `must be at most ${max.toLocaleString('en-US')}`);

/** Items on hand: a whole number, 0 or more. */
export const StockCount = wholeNumber(0, MAX_MERCHANDISE_STOCK, 'must be 0 or more');

export const AddMerchandiseRequest = z.strictObject({
  name: RequiredText(80),
  price: MerchandisePrice,
  taxable: z.boolean(),
  /** Items on hand; null: an item with no stock to count (a service fee). */
  stock: StockCount.nullable(),
});
export type AddMerchandiseRequest = z.input<typeof AddMerchandiseRequest>;

/** Everything staff may change about an item (its stock moves by restocking, a count or a sale). */
export const ChangeMerchandiseRequest = z.strictObject({
  name: RequiredText(80),
  price: MerchandisePrice,
  taxable: z.boolean(),
  /** false: retired (no longer sold, still listed). */
  active: z.boolean(),
});
export type ChangeMerchandiseRequest = z.input<typeof ChangeMerchandiseRequest>;

export const RestockMerchandiseRequest = z.strictObject({ quantity: wholeNumber(1, MAX_MERCHANDISE_STOCK, 'must be at least 1') });
export type RestockMerchandiseRequest = z.input<typeof RestockMerchandiseRequest>;

/** A count of what is really on the shelf, and why it differs (damaged, lost, miscounted). */
export const AdjustMerchandiseStockRequest = z.strictObject({ stock: StockCount, reason: RequiredText(200) });
export type AdjustMerchandiseStockRequest = z.input<typeof AdjustMerchandiseStockRequest>;

/** One item of the catalogue, as the console lists it. */
export const MerchandiseItem = z.object({
  id: Id,
  facilityId: Id,
  name: z.string(),
  price: z.string(),
  taxable: z.boolean(),
  /** null: not counted (a service fee). */
  stock: z.number().int().nullable(),
  active: z.boolean(),
});
export type MerchandiseItem = z.infer<typeof MerchandiseItem>;

export const MerchandiseSaleLineRequest = z.strictObject({ itemId: Id, quantity: wholeNumber(1, MAX_SALE_QUANTITY, 'must be at least 1') });

/**
 * A desk sale to a renter: items of one facility (the renter's unless another is named), each
 * once, with their quantities.
 */
export const MerchandiseSaleRequest = z.strictObject({
  facilityId: Id.nullish().transform((v) => v ?? null),
  lines: z
    .array(MerchandiseSaleLineRequest)
    .min(1, 'must name at least one item')
    .max(50, 'must be at most 50 items')
    .superRefine((lines, ctx) => {
      const seen = new Set<string>();
      lines.forEach((line, index) => {
        if (seen.has(line.itemId)) ctx.addIssue({ code: 'custom', path: [index, 'itemId'], message: 'must not repeat an item' });
        seen.add(line.itemId);
      });
    }),
});
export type MerchandiseSaleRequest = z.input<typeof MerchandiseSaleRequest>;

/** What a sale issued: the invoice (one line per item, each taxed item followed by its tax line). */
export const MerchandiseSale = z.object({
  saleId: Id,
  customerId: Id,
  invoiceId: Id,
  invoiceNumber: z.string(),
  total: z.string(),
});
export type MerchandiseSale = z.infer<typeof MerchandiseSale>;

/** `lines`: itemId:quantity pairs, comma separated ("<id>:2,<id>:1"), as the sale would send them. */
export const MerchandiseQuoteQuery = z.strictObject({
  lines: z
    .string()
    .max(4000, 'must be at most 50 items')
    .transform((text, ctx) => {
      const pairs = text.split(',').map((pair) => {
        const [itemId = '', quantity = ''] = pair.split(':');
        return { itemId: itemId.trim(), quantity: /^\d{1,4}$/.test(quantity.trim()) ? Number(quantity) : Number.NaN };
      });
      const parsed = MerchandiseSaleRequest.shape.lines.safeParse(pairs);
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: `must be itemId:quantity pairs, comma separated (${parsed.error.issues[0]?.message ?? 'invalid'})` });
      return z.NEVER;
    }),
});
export type MerchandiseQuoteQuery = z.input<typeof MerchandiseQuoteQuery>;

/** What a sale of these items would bill were it made now: its invoice's lines and their total. */
export const MerchandiseQuote = z.object({ lines: z.array(InvoiceLine), total: z.string() });
export type MerchandiseQuote = z.infer<typeof MerchandiseQuote>;
