import type { InvoiceLine } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import type { MoveInQuote } from '@storage/contracts/quotes';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Flex, Skeleton, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { type MoveInQuoteTerms, useMoveInQuote } from '../api/get-move-in-quote.ts';

/** How long the terms rest before they are quoted: typing a rate asks once, not at every key. */
const QUOTE_DELAY_MS = 300;

/** The quote of the terms on screen, asked once they rest; `current`: the quote of exactly these terms (null while another loads). */
export type TermsQuote = {
  terms: MoveInQuoteTerms | null;
  invalid: boolean;
  query: ReturnType<typeof useMoveInQuote>;
  /** The terms last asked (the query's), which may lag the typed ones. */
  settledTerms: MoveInQuoteTerms | null;
  current: MoveInQuote | null;
  /** The terms on screen are not yet those asked. */
  stale: boolean;
};

/**
 * Quotes the terms as staff change them. `terms`: null while no unit or start date is chosen;
 * `invalid`: a rate or a deposit that cannot be quoted (its field says why).
 */
export function useTermsQuote(terms: MoveInQuoteTerms | null, invalid: boolean): TermsQuote {
  // Compared as text, so the same terms typed again are the same quote.
  const typed = terms && !invalid ? JSON.stringify(terms) : null;
  const settled = useDebouncedValue(typed, QUOTE_DELAY_MS);
  const settledTerms = settled === null ? null : (JSON.parse(settled) as MoveInQuoteTerms);
  const query = useMoveInQuote(settledTerms);
  // Only the quote of the terms on screen, never the previous one kept while the next loads.
  const current = query.data && !query.isPlaceholderData && typed !== null && typed === settled ? query.data : null;
  return { terms, invalid, query, settledTerms, current, stale: typed !== settled };
}

/**
 * The items sold with the move-in, as the server quotes their invoice: `quote` null until it is in,
 * `current` false while the quote of newer lines loads, `error` why it could not be worked out.
 */
export type ItemsQuote = { quote: { lines: InvoiceLine[]; total: string } | null; current: boolean; error: string | null };

/** Due today with the items: the move-in's invoices and the items' invoice (none: nothing more). */
const withItems = (moveInTotal: string, itemsTotal: string | null) =>
  itemsTotal === null ? moveInTotal : fromCents(toCents(moveInTotal) + toCents(itemsTotal));

/**
 * What the renter pays at move-in and what the next invoice will be, as billing will issue them
 * (the server's quote, the one place that works it out), following the terms as staff change them;
 * with `items`, the items sold with it in a block of their own, counted in Due today.
 * `takenBack`: a refusal the form answers by taking a choice back (the quote is asked again without it): no warning for it.
 * `onTotal`: Due today, once both quotes are of the terms and the items on screen.
 */
export function MoveInQuotePanel({
  quoted,
  items = null,
  onTotal,
  takenBack,
}: {
  quoted: TermsQuote;
  items?: ItemsQuote | null;
  onTotal?: (totalDueToday: string) => void;
  takenBack?: (error: Error) => boolean;
}) {
  const { terms, invalid, query: quote } = quoted;
  const itemsSettled = items === null || (items.current && items.quote !== null);
  const total = quoted.current && itemsSettled ? withItems(quoted.current.totalDueToday, items?.quote?.total ?? null) : null;
  useEffect(() => {
    if (total !== null) onTotal?.(total);
  }, [total, onTotal]);
  if (terms === null) return null;
  let shown: ReactNode;
  if (invalid) shown = <Typography.Text type="secondary">Enter a valid monthly rate and deposit to see what the renter pays.</Typography.Text>;
  else if (quote.isError && !takenBack?.(quote.error))
    shown = <Alert type="warning" showIcon title="Could not work out the move-in charges" description={serverMessage(quote.error)} />;
  else if (!quote.data || quote.isError) shown = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else shown = <QuoteFigures quote={quote.data} items={items} stale={quote.isPlaceholderData || quoted.stale} />;
  return (
    <section aria-label="What the renter pays at move-in" aria-live="polite" style={{ marginBottom: 16 }}>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        What the renter pays at move-in
      </Typography.Text>
      {shown}
    </section>
  );
}

function QuoteFigures({ quote, items, stale }: { quote: MoveInQuote; items: ItemsQuote | null; stale: boolean }) {
  const several = quote.dueToday.length > 1;
  return (
    <div style={{ opacity: stale || (items !== null && !items.current) ? 0.6 : 1 }} data-testid="move-in-quote">
      {quote.dueToday.map((invoice) => (
        <div key={invoice.periodStart} style={{ marginBottom: 8 }}>
          {/* A backdated start owes rent already issued: each invoice under its own name. */}
          {several && <Typography.Text type="secondary">{invoice.description}</Typography.Text>}
          <InvoiceLines lines={invoice.lines} />
        </div>
      ))}
      {items && <ItemsFigures items={items} />}
      <Flex justify="space-between" gap={12} style={{ borderTop: '1px solid rgba(0, 0, 0, 0.15)', paddingTop: 8 }}>
        <Typography.Text strong>Due today</Typography.Text>
        <Typography.Text strong data-testid="move-in-quote-total">
          {formatDollars(withItems(quote.totalDueToday, items?.quote?.total ?? null))}
        </Typography.Text>
      </Flex>
      {quote.nextInvoice && (
        <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }} data-testid="move-in-quote-next">
          Next invoice: {formatDollars(quote.nextInvoice.total)} on {formatDate(quote.nextInvoice.dueDate)}
          <Typography.Text type="secondary">
            {' '}
            ({quote.nextInvoice.description}, sent {formatDate(quote.nextInvoice.issueDate)})
          </Typography.Text>
        </Typography.Paragraph>
      )}
    </div>
  );
}

/** The items' own invoice: each item and its tax, under its own name. */
function ItemsFigures({ items }: { items: ItemsQuote }) {
  let shown: ReactNode;
  if (items.error) shown = <Alert type="warning" showIcon title="Could not work out the items' total" description={items.error} />;
  else if (!items.quote) shown = <Skeleton active title={false} paragraph={{ rows: 1 }} />;
  else shown = <InvoiceLines lines={items.quote.lines} />;
  return (
    <div style={{ marginBottom: 8 }} data-testid="move-in-quote-merchandise">
      <Typography.Text type="secondary">Merchandise</Typography.Text>
      {shown}
    </div>
  );
}

function InvoiceLines({ lines }: { lines: InvoiceLine[] }) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one invoice never reorder
        <li key={index}>
          <Flex justify="space-between" gap={12}>
            <Typography.Text>{line.description}</Typography.Text>
            <Typography.Text style={{ whiteSpace: 'nowrap' }}>{formatDollars(line.amount)}</Typography.Text>
          </Flex>
        </li>
      ))}
    </ul>
  );
}
