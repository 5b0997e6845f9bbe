import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { payFromCredit } from '../accounts/pay-from-credit.ts';
import { todayIn } from '../billing/calendar.ts';
import { facilityBilling } from '../billing/settings.ts';
import { derivedId } from '../commands/derived-id.ts';
import { DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { facilityAggregate } from '../facilities/facility.ts';
import { generateInvoice, sendInvoice } from '../invoices/commands.ts';
import { type InvoiceState, invoiceAggregate } from '../invoices/invoice.ts';
import { decideMerchandise, type ItemDetails, liveSale, type MerchandiseCommand } from './businessLogic.ts';
import { type ItemSale, merchandiseAggregate } from './item.ts';
import { merchandiseLines, merchandiseTotal } from './lines.ts';

function decide(ctx: CommandContext, command: MerchandiseCommand) {
  return handleCommand(ctx, streams.merchandise(command.itemId), merchandiseAggregate, (state) => decideMerchandise(command, state));
}

export async function addMerchandiseItem(ctx: CommandContext, facilityId: string, details: ItemDetails, stock: number | null, itemId: string = randomUUID()) {
  const { state: facility } = await loadAggregate(ctx.store, streams.facility(facilityId), facilityAggregate);
  if (facility.status === 'none') throw new NotFoundError('Facility not found');
  return decide(ctx, { type: 'AddMerchandise', itemId, facilityId, details, stock });
}

/** Its name, price, taxability and whether it is still sold (active false: retired). */
export async function changeMerchandiseItem(ctx: CommandContext, itemId: string, details: ItemDetails, active: boolean) {
  return decide(ctx, { type: 'ChangeMerchandise', itemId, details, active });
}

export async function restockMerchandiseItem(ctx: CommandContext, itemId: string, quantity: number) {
  return decide(ctx, { type: 'RestockMerchandise', itemId, quantity });
}

/** The stock as counted on the shelf, with why it differs from what the stream holds. */
export async function countMerchandiseStock(ctx: CommandContext, itemId: string, stock: number, reason: string) {
  return decide(ctx, { type: 'AdjustMerchandiseStock', itemId, stock, reason });
}

/** The invoice of a sale: derived from its id, so a retry of the sale issues (or finds) the same one. */
export function merchandiseSaleInvoiceId(saleId: string): string {
  return derivedId('merchandise-sale-invoice', saleId);
}

/** MER-202611-1A2B3C4D5E6F: the month it was sold in and the start of its invoice's (derived) id. */
function saleInvoiceNumber(today: string, invoiceId: string): string {
  return `MER-${today.slice(0, 7).replace('-', '')}-${invoiceId.replaceAll('-', '').slice(0, 12).toUpperCase()}`;
}

export type DeskSale = {
  customerId: string;
  /** The facility it is sold at; null: the customer's own. */
  facilityId: string | null;
  lines: ReadonlyArray<{ itemId: string; quantity: number }>;
};

export type DeskSaleResult = { saleId: string; customerId: string; invoiceId: string; invoiceNumber: string; total: string; position: Position | null };

function saleResult(saleId: string, invoice: InvoiceState, position: Position | null): DeskSaleResult {
  if (invoice.status !== 'current') throw new Error(`The invoice of sale ${saleId} could not be issued`);
  const { customerId, invoiceNumber, amount } = invoice.fields;
  return { saleId, customerId, invoiceId: invoice.invoiceId, invoiceNumber, total: amount, position };
}

/** The facility the sale is made at: the one named (which must exist), else the renter's. */
async function saleFacility(ctx: CommandContext, sale: DeskSale): Promise<string> {
  const { state: customer } = await loadAggregate(ctx.store, streams.customer(sale.customerId), customerAggregate);
  if (customer.status !== 'current') throw new NotFoundError('Customer not found');
  if (sale.facilityId === null) {
    if (customer.fields.facilityId === null) throw new DomainRuleError('facilityId: is required for a customer of no facility', 'facilityId');
    return customer.fields.facilityId;
  }
  const { state: facility } = await loadAggregate(ctx.store, streams.facility(sale.facilityId), facilityAggregate);
  if (facility.status === 'none') throw new DomainRuleError('facilityId: Facility not found', 'facilityId');
  return sale.facilityId;
}

/** Items to take off the shelf for one sale, billed on `invoiceId`. */
export type MerchandiseToTake = { customerId: string; facilityId: string; lines: ReadonlyArray<{ itemId: string; quantity: number }> };

/**
 * The stock step of a sale, for any invoice that bills it (the desk's own, or a move-in's): each
 * item sold on its stream under `saleId`, never below 0, a repeat of the sale a no-op. Answers what
 * each stream recorded (name, price, taxability as they were when sold), for merchandiseLines. When
 * an item cannot be sold, the items already taken for this sale go back (putBackMerchandise) and
 * the refusal is thrown: nothing of the sale is left taken.
 */
export async function takeMerchandise(ctx: CommandContext, sale: MerchandiseToTake, saleId: string, invoiceId: string) {
  // Checked before anything is written: a mistake in the request sells nothing.
  for (const [index, line] of sale.lines.entries()) {
    const { state } = await loadAggregate(ctx.store, streams.merchandise(line.itemId), merchandiseAggregate);
    if (state.status === 'none') throw new DomainRuleError(`lines.${index}.itemId: Item not found`, 'lines');
    if (state.facilityId !== sale.facilityId && !liveSale(state, saleId))
      throw new DomainRuleError(`lines.${index}.itemId: ${state.name} is not sold at this facility`, 'lines');
  }
  const sold: ItemSale[] = [];
  let position: Position | null = null;
  for (const [index, line] of sale.lines.entries()) {
    try {
      const { itemId, quantity } = line;
      const result = await decide(ctx, {
        type: 'SellMerchandise',
        itemId,
        facilityId: sale.facilityId,
        saleId,
        quantity,
        customerId: sale.customerId,
        invoiceId,
      });
      position = result.position ?? position;
      const recorded = liveSale(result.state, saleId);
      if (!recorded) throw new Error(`Sale ${saleId} of item ${itemId} was not recorded`);
      sold.push(recorded);
    } catch (error) {
      await putBackMerchandise(ctx, sale.lines.slice(0, index), saleId, `Sale not completed: ${error instanceof Error ? error.message : 'refused'}`);
      throw error;
    }
  }
  return { sold, position };
}

/** Puts back what a sale took of these items (a sale whose invoice will not be issued); once, whatever is repeated. */
export async function putBackMerchandise(ctx: CommandContext, lines: ReadonlyArray<{ itemId: string }>, saleId: string, reason: string) {
  for (const line of lines) await decide(ctx, { type: 'UndoMerchandiseSale', itemId: line.itemId, saleId, reason });
}

/**
 * Sells items at the desk: each item's sale on its own stream (its stock never below 0), then one
 * invoice to the renter with a line per item and its tax, sent and paid from their credit as the
 * billing engine's invoices are. Exactly once per `saleId` (derived from the request's key): a
 * repeat sells nothing twice and answers the same invoice, and a repeat after a crash between the
 * items and the invoice finishes the invoice. When an item cannot be sold (stock ran out), the
 * items already sold for this sale go back on the shelf and nothing is billed.
 */
export async function sellMerchandiseAtDesk(ctx: CommandContext, sale: DeskSale, saleId: string = randomUUID()): Promise<DeskSaleResult> {
  const facilityId = await saleFacility(ctx, sale);
  const invoiceId = merchandiseSaleInvoiceId(saleId);
  const done = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  if (done.state.status === 'current') return finishInvoice(ctx, saleId, done.state, null);

  const { sold, position } = await takeMerchandise(ctx, { customerId: sale.customerId, facilityId, lines: sale.lines }, saleId, invoiceId);

  const { timeZone, settings } = await facilityBilling(ctx.store, facilityId);
  const today = todayIn(timeZone, ctx.now);
  const lines = merchandiseLines(
    sold,
    sold.map((s) => s.quantity),
    settings.salesTax,
  );
  const generated = await generateInvoice(
    ctx,
    {
      invoiceNumber: saleInvoiceNumber(today, invoiceId),
      customerId: sale.customerId,
      leaseId: null,
      amount: merchandiseTotal(lines),
      dueDate: today,
      status: 'draft',
      description: 'Merchandise',
      lines,
    },
    invoiceId,
  );
  return finishInvoice(ctx, saleId, generated.state, generated.position ?? position, today);
}

/** Sends the sale's invoice if an attempt stopped short of it, and pays it from the renter's credit (once per invoice). */
async function finishInvoice(ctx: CommandContext, saleId: string, invoice: InvoiceState, position: Position | null, today?: string) {
  let state = invoice;
  let last = position;
  if (state.status === 'current' && state.fields.status === 'draft') {
    const sent = await sendInvoice(ctx, state.invoiceId, today);
    state = sent.state;
    last = sent.position ?? last;
  }
  if (state.status === 'current') last = (await payFromCredit(ctx, state.invoiceId)) ?? last;
  return saleResult(saleId, state, last);
}
