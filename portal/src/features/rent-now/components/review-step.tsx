import type { AvailableUnit } from '@storage/contracts/public';
import { formatRate, squareFeet } from '../../units/unit-size.ts';
import { type ContactDetails, contactLabels, localToday } from '../reservation-form.ts';
import { MoveInQuoteBlock } from './move-in-quote.tsx';

/** The move-in day typed, when the reservation would take it (a date, not before today). */
function quotableDay(moveInDate: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(moveInDate) && moveInDate >= localToday() ? moveInDate : null;
}

export function ReviewStep({ unit, waitingList, details }: { unit: AvailableUnit | null; waitingList: boolean; details: ContactDetails }) {
  return (
    <div className="review">
      <section>
        <h2>{waitingList ? 'Waiting list' : 'Unit'}</h2>
        {unit ? (
          <p>
            Unit {unit.unitNumber} · {unit.size} ft ({squareFeet(unit.size)} sq ft) · Building {unit.building}
            {unit.facility ? ` · ${unit.facility.name}` : ''} · {formatRate(unit.monthlyRate)}/month
          </p>
        ) : (
          <p>{waitingList ? 'We will contact you when a unit is available.' : 'No unit selected'}</p>
        )}
      </section>
      {unit && <MoveInQuoteBlock unitId={unit.id} moveInDate={quotableDay(details.moveInDate)} />}
      <section>
        <h2>Your details</h2>
        <dl className="unit-details">
          {(Object.keys(contactLabels) as Array<keyof ContactDetails>).map((field) => (
            <div key={field} className="unit-details-row">
              <dt>{contactLabels[field]}</dt>
              <dd>{details[field] || '—'}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
