import type { InvoiceLine } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { facilityBilling } from '../billing/settings.ts';
import { DomainRuleError } from '../commands/errors.ts';
import { aggregateFrom } from '../commands/handle.ts';
import { merchandiseAggregate } from './item.ts';
import { merchandiseLines, merchandiseTotal } from './lines.ts';

/**
 * What selling these items at the facility would bill now (the desk's dialog shows it before the
 * sale): the lines and the total the sale's invoice would have, worked out by the same function
 * from the items' streams and the facility's tax rate. Stock is not checked: the sale decides it.
 */
export async function quoteMerchandise(
  store: EventStore,
  facilityId: string,
  wanted: ReadonlyArray<{ itemId: string; quantity: number }>,
): Promise<{ lines: InvoiceLine[]; total: string }> {
  const read = await readStreams(
    store,
    wanted.map((line) => streams.merchandise(line.itemId)),
  );
  const items = wanted.map((line, index) => {
    const { state } = aggregateFrom(read.get(streams.merchandise(line.itemId)) ?? [], merchandiseAggregate);
    if (state.status === 'none') throw new DomainRuleError(`lines.${index}.itemId: Item not found`, 'lines');
    if (state.facilityId !== facilityId) throw new DomainRuleError(`lines.${index}.itemId: ${state.name} is not sold at this facility`, 'lines');
    if (!state.active) throw new DomainRuleError(`lines.${index}.itemId: ${state.name} is no longer sold`, 'lines');
    return state;
  });
  const { settings } = await facilityBilling(store, facilityId);
  const lines = merchandiseLines(
    items,
    wanted.map((line) => line.quantity),
    settings.salesTax,
  );
  return { lines, total: merchandiseTotal(lines) };
}
