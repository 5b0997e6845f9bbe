import type { AvailableUnit } from '@storage/contracts/public';
import { formatRate, squareFeet } from '../../units/unit-size.ts';
import type { AvailableUnitsState } from '../../units/use-available-units.ts';

export function ChooseUnitStep({
  units,
  chosenUnitId,
  onChoose,
  onJoinWaitingList,
}: {
  units: AvailableUnitsState;
  chosenUnitId: string | null;
  onChoose(unit: AvailableUnit): void;
  onJoinWaitingList(): void;
}) {
  if (units.status === 'loading') return <div className="page-loading" role="status" aria-label="Loading units" />;
  if (units.status === 'error') {
    return (
      <p className="form-notice form-notice-bad" role="alert">
        Unable to load available units: {units.message}
      </p>
    );
  }
  if (units.units.length === 0) {
    return (
      <div className="units-empty">
        <h2>No units available right now</h2>
        <p>Join the waiting list and we will contact you as soon as a unit frees up.</p>
        <button type="button" className="button button-primary" onClick={onJoinWaitingList}>
          Join Waiting List
        </button>
      </div>
    );
  }
  return (
    <fieldset className="unit-choices">
      <legend>Choose a unit</legend>
      {units.units.map((unit) => (
        <label key={unit.id} className={`unit-choice${unit.id === chosenUnitId ? ' unit-choice-selected' : ''}`}>
          <input type="radio" name="unit" value={unit.id} checked={unit.id === chosenUnitId} onChange={() => onChoose(unit)} />
          <span className="unit-choice-name">Unit {unit.unitNumber}</span>
          <span>
            {unit.size} ft · {squareFeet(unit.size)} sq ft · Building {unit.building}
            {unit.facility ? ` · ${unit.facility.name}` : ''}
          </span>
          <span className="unit-rate">
            <strong>{formatRate(unit.monthlyRate)}</strong>/month
          </span>
        </label>
      ))}
    </fieldset>
  );
}
