import type { AvailableUnit } from '@storage/contracts/public';
import { Link } from 'wouter';
import { formatRate, squareFeet, unitDescription } from '../unit-size.ts';
import { Dialog } from './dialog.tsx';
import { UnitFeatures } from './unit-features.tsx';

export function UnitDetailsDialog({ unit, onClose }: { unit: AvailableUnit; onClose(): void }) {
  return (
    <Dialog title={`Unit ${unit.unitNumber}`} onClose={onClose}>
      <dl className="unit-details">
        <dt>Facility</dt>
        <dd>{unit.facility?.name ?? '—'}</dd>
        <dt>Building</dt>
        <dd>{unit.building}</dd>
        <dt>Size</dt>
        <dd>
          {unit.size} ft ({squareFeet(unit.size)} sq ft)
        </dd>
        <dt>Monthly rate</dt>
        <dd>{formatRate(unit.monthlyRate)}/month</dd>
      </dl>
      <p>{unitDescription(unit)}</p>
      <UnitFeatures features={unit.features} />
      <div className="button-row">
        <Link href={`/rent-now?unit=${unit.id}`} className="button button-primary">
          Reserve This Unit
        </Link>
      </div>
    </Dialog>
  );
}
