import { formatDollars } from '@storage/contracts/cents';
import { offeredPromotionLabel } from '@storage/contracts/promotions';
import type { AvailableUnit } from '@storage/contracts/public';
import type { MoveInSummary } from '@storage/contracts/quotes';
import { Link } from 'wouter';
import { formatRate, squareFeet, unitDescription } from '../unit-size.ts';
import { UnitFeatures } from './unit-features.tsx';

/** A unit of the public list; `summary`, once loaded, adds what moving in today costs and the promotions offered online. */
export function UnitCard({ unit, summary, onViewDetails }: { unit: AvailableUnit; summary?: MoveInSummary | undefined; onViewDetails(): void }) {
  return (
    <article className="unit-card" aria-label={`Unit ${unit.unitNumber}`}>
      <header className="unit-card-header">
        <div>
          <h2>Unit {unit.unitNumber}</h2>
          <p className="unit-card-place">
            Building {unit.building}
            {unit.facility ? ` · ${unit.facility.name}` : ''}
          </p>
        </div>
        <p className="unit-rate">
          <strong>{formatRate(unit.monthlyRate)}</strong>/month
        </p>
      </header>
      <p className="unit-size">
        {unit.size} ft · {squareFeet(unit.size)} sq ft
      </p>
      <p className="unit-description">{unitDescription(unit)}</p>
      <UnitFeatures features={unit.features} />
      {summary && <MoveInSummaryLines summary={summary} />}
      <div className="unit-card-actions">
        <Link href={`/rent-now?unit=${unit.id}`} className="button button-primary">
          Reserve This Unit
        </Link>
        <button type="button" className="button button-secondary" onClick={onViewDetails}>
          View Unit Details
        </button>
      </div>
    </article>
  );
}

/** "Due at move-in: $X" (a move-in today, no plan, no promotion), and each promotion a move-in online may take. */
function MoveInSummaryLines({ summary }: { summary: MoveInSummary }) {
  return (
    <>
      <p className="unit-move-in">
        Due at move-in: <strong>{formatDollars(summary.totalDueToday)}</strong>
      </p>
      {summary.promotions.length > 0 && (
        <ul className="unit-promotions" aria-label="Online promotions">
          {summary.promotions.map((promotion) => (
            <li key={promotion.promotionId}>{offeredPromotionLabel(promotion)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
