import { formatDollars } from '@storage/contracts/cents';
import { dayInWords } from '@storage/contracts/day-words';
import type { PublicMoveInQuote } from '@storage/contracts/quotes';
import { useMoveInQuote } from '../quote-api.ts';

/**
 * "What you pay at move-in" for the unit on the day chosen, as the facility will bill it: each
 * charge, the total due at move-in and the next invoice. Nothing for a day the reservation would
 * refuse (before today) or no day yet: the review says what is missing at submit.
 */
export function MoveInQuoteBlock({ unitId, moveInDate }: { unitId: string; moveInDate: string | null }) {
  const state = useMoveInQuote(unitId, moveInDate);
  if (!state) return null;
  return (
    <section className="move-in-quote" aria-label="What you pay at move-in" aria-live="polite">
      <h2>What you pay at move-in</h2>
      {state.status === 'loading' && <p className="move-in-quote-note">Working out your move-in charges...</p>}
      {state.status === 'error' && <p className="move-in-quote-note">We could not work out your move-in charges: {state.message}</p>}
      {state.status === 'loaded' && <QuoteFigures quote={state.quote} />}
    </section>
  );
}

function QuoteFigures({ quote }: { quote: PublicMoveInQuote }) {
  const lines = quote.dueToday.flatMap((invoice) => invoice.lines);
  return (
    <>
      <dl className="move-in-quote-lines">
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the charges of one quote never reorder
          <div key={index} className="move-in-quote-line">
            <dt>{line.description}</dt>
            <dd>{formatDollars(line.amount)}</dd>
          </div>
        ))}
        <div className="move-in-quote-line move-in-quote-total">
          <dt>Due at move-in</dt>
          <dd>{formatDollars(quote.totalDueToday)}</dd>
        </div>
      </dl>
      {quote.nextInvoice && (
        <p className="move-in-quote-note">
          Next invoice: {formatDollars(quote.nextInvoice.total)} on {dayInWords(quote.nextInvoice.dueDate)}
        </p>
      )}
    </>
  );
}
