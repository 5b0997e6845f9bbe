import type { AvailableUnit } from '@storage/contracts/public';
import { Link } from 'wouter';
import { formatRate, squareFeet, unitDescription } from '../unit-size.ts';
import { UnitFeatures } from './unit-features.tsx';

export function UnitCard({ unit, onViewDetails }: { unit: AvailableUnit; onViewDetails(): void }) {
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
