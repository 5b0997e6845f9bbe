import type { MerchandiseQuote } from '@storage/contracts/merchandise';
import { serverMessage } from '@storage/web-client/api';
import { Form, Typography } from 'antd';
import { useEffect } from 'react';
import { useMerchandise } from '../api/merchandise.ts';
import { MerchandiseLineFields, type SaleLine, type SaleLineValues, useLinesQuote } from './merchandise-line-fields.tsx';

/**
 * The items chosen at a move-in and what they would bill. `quote`: the server's (the last one while
 * the next loads: `current` false); `error`: why it could not be worked out.
 */
export type ChosenMerchandise = { lines: SaleLine[]; quote: MerchandiseQuote | null; current: boolean; error: string | null };

/** The form list the Move In keeps the items in. */
const FIELD = 'merchandise';

/**
 * The Merchandise section of the Move In: items of the unit's facility with their quantities, in the
 * surrounding form's `merchandise` list. Hidden while the facility sells nothing. `onChosen`: the
 * complete lines and their quote as they change (null: nothing to sell).
 */
export function MoveInMerchandiseSection({ facilityId, onChosen }: { facilityId: string; onChosen: (chosen: ChosenMerchandise | null) => void }) {
  const form = Form.useFormInstance();
  const watched = Form.useWatch(FIELD, form) as SaleLineValues[] | undefined;
  const items = useMerchandise(facilityId);
  const onSale = (items.data ?? []).filter((item) => item.active);
  const shown = items.isSuccess && onSale.length > 0;
  const { lines, quote, current } = useLinesQuote(facilityId, shown ? watched : undefined);
  const error = quote.isError ? serverMessage(quote.error) : null;
  const linesText = lines && JSON.stringify(lines);
  useEffect(() => {
    onChosen(linesText ? { lines: JSON.parse(linesText) as SaleLine[], quote: quote.data ?? null, current, error } : null);
  }, [linesText, quote.data, current, error, onChosen]);

  if (!shown) return null;
  return (
    <section aria-label="Merchandise" style={{ marginBottom: 8 }}>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        Merchandise
      </Typography.Text>
      <MerchandiseLineFields name={FIELD} items={onSale} minRows={0} />
    </section>
  );
}
