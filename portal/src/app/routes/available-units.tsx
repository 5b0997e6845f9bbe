import type { AvailableUnit } from '@storage/contracts/public';
import { useState } from 'react';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { MoveInQuoteBlock } from '../../features/rent-now/components/move-in-quote.tsx';
import { Dialog } from '../../features/units/components/dialog.tsx';
import { UnitCard } from '../../features/units/components/unit-card.tsx';
import { UnitDetailsDialog } from '../../features/units/components/unit-details-dialog.tsx';
import { WaitlistForm } from '../../features/units/components/waitlist-form.tsx';
import { useAvailableUnits } from '../../features/units/use-available-units.ts';
import { useMoveInSummaries } from '../../features/units/use-move-in-summaries.ts';

export default function AvailableUnitsPage() {
  const units = useAvailableUnits();
  const summaries = useMoveInSummaries(units.status === 'loaded' ? units.units : null);
  const [details, setDetails] = useState<AvailableUnit | null>(null);
  const [waitlistOpen, setWaitlistOpen] = useState(false);
  const detailsSummary = details ? summaries.get(details.id) : undefined;
  return (
    <>
      <SiteHeader />
      <main className="container units-page">
        <header className="section-heading">
          <p className="eyebrow">Rent online</p>
          <h1>Available Units</h1>
          {units.status === 'loaded' && (
            <p className="units-count">
              {units.units.length} {units.units.length === 1 ? 'unit' : 'units'} available
            </p>
          )}
        </header>
        {units.status === 'loading' && <div className="page-loading" role="status" aria-label="Loading units" />}
        {units.status === 'error' && (
          <p className="form-notice form-notice-bad" role="alert">
            Unable to load available units: {units.message}
          </p>
        )}
        {units.status === 'loaded' && units.units.length === 0 && (
          <section className="units-empty">
            <h2>No units available right now</h2>
            <p>Every unit is taken at the moment. Leave your details and we will tell you when one frees up.</p>
            <button type="button" className="button button-primary" onClick={() => setWaitlistOpen(true)}>
              Get Notified When Available
            </button>
          </section>
        )}
        {units.status === 'loaded' && units.units.length > 0 && (
          <div className="unit-grid">
            {units.units.map((unit) => (
              <UnitCard key={unit.id} unit={unit} summary={summaries.get(unit.id)} onViewDetails={() => setDetails(unit)} />
            ))}
          </div>
        )}
      </main>
      {details && (
        <UnitDetailsDialog
          unit={details}
          // The wizard's own quote of a move-in on the day the summary was quoted for; a unit with no summary shows no charges.
          moveInCharges={detailsSummary && <MoveInQuoteBlock unitId={details.id} moveInDate={detailsSummary.today} />}
          onClose={() => setDetails(null)}
        />
      )}
      {waitlistOpen && (
        <Dialog title="Get Notified When Available" onClose={() => setWaitlistOpen(false)}>
          <WaitlistForm />
        </Dialog>
      )}
      <SiteFooter />
    </>
  );
}
