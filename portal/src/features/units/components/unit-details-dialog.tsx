import type { AvailableUnit } from '@storage/contracts/public';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { formatRate, squareFeet, unitDescription } from '../unit-size.ts';
import { Dialog } from './dialog.tsx';
import { UnitFeatures } from './unit-features.tsx';

/** The unit's details; `moveInCharges`, when given, is what moving in costs (the page composes it). */
export function UnitDetailsDialog({ unit, moveInCharges, onClose }: { unit: AvailableUnit; moveInCharges?: ReactNode; onClose(): void }) {
  return (
    <Dialog title={`Unit ${unit.unitNumber}`} onClose={onClose}>
      <dl className="unit-details">
        <dt>Facility</dt>
        <dd>{unit.facility?.name ?? '—'}</dd>
        {unit.facility && (
          <>
            <dt>Access hours</dt>
            <dd>{unit.facility.accessHours}</dd>
          </>
        )}
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
      {moveInCharges}
      <div className="button-row">
        <Link href={`/rent-now?unit=${unit.id}`} className="button button-primary">
          Reserve This Unit
        </Link>
      </div>
    </Dialog>
  );
}
