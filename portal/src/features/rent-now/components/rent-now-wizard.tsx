import { ApiError, serverMessage } from '@storage/web-client/api';
import { useState } from 'react';
import { Link } from 'wouter';
import { Toast, useToast } from '../../portal/toast.tsx';
import { joinWaitlist } from '../../units/units-api.ts';
import { useAvailableUnits } from '../../units/use-available-units.ts';
import { type ContactDetails, emptyContactDetails, submitProblem } from '../reservation-form.ts';
import { submitReservation } from '../reservations-api.ts';
import { ChooseUnitStep } from './choose-unit-step.tsx';
import { ContactStep } from './contact-step.tsx';
import { ReviewStep } from './review-step.tsx';

type Step = 1 | 2 | 3 | 4;
const STEP_COUNT = 3;
const stepTitles: Record<Step, string> = { 1: 'Choose Your Unit', 2: 'Your Information', 3: 'Review & Submit', 4: 'Confirmation' };

/** The rent-now wizard: choose a unit (or the waiting list), contact details, review, confirmation. */
export function RentNowWizard({ initialUnitId }: { initialUnitId: string | null }) {
  const [step, setStep] = useState<Step>(initialUnitId ? 2 : 1);
  const [unitId, setUnitId] = useState<string | null>(initialUnitId);
  const [waitingList, setWaitingList] = useState(false);
  const [details, setDetails] = useState<ContactDetails>(emptyContactDetails);
  const [submitting, setSubmitting] = useState(false);
  /** The server's word that another renter got the unit first. */
  const [unitTaken, setUnitTaken] = useState<string | null>(null);
  const { toast, show: showToast, dismiss: dismissToast } = useToast();
  const [reload, setReload] = useState(0);
  const units = useAvailableUnits(reload);
  const unit = units.status === 'loaded' ? (units.units.find((u) => u.id === unitId) ?? null) : null;

  function chooseAnotherUnit() {
    setUnitId(null);
    setUnitTaken(null);
    setReload((n) => n + 1);
    setStep(1);
  }

  async function submit() {
    const problem = submitProblem(details, unitId !== null || waitingList);
    if (problem) {
      showToast({ title: problem.title, description: problem.message, tone: 'error' });
      return;
    }
    setSubmitting(true);
    try {
      if (unitId) {
        await submitReservation({ unitId, customerData: details });
        showToast({ title: 'Reservation Submitted!', description: 'We will contact you within 24 hours to complete the setup.' });
      } else {
        const { firstName, lastName, email, phone } = details;
        await joinWaitlist({ firstName, lastName, email, phone });
        showToast({ title: 'Added to Waiting List', description: 'We will contact you as soon as a unit is available.' });
      }
      setStep(4);
    } catch (error) {
      const message = error instanceof ApiError ? serverMessage(error) : '';
      setUnitTaken(error instanceof ApiError && error.status === 409 ? message : null);
      showToast({ title: 'Reservation Failed', description: message || 'Please try again or call us directly.', tone: 'error' });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="wizard">
      <header className="wizard-header">
        {step < 4 && (
          <p className="wizard-progress">
            Step {step} of {STEP_COUNT}
          </p>
        )}
        <h2>{stepTitles[step]}</h2>
      </header>

      {step === 1 && (
        <ChooseUnitStep
          units={units}
          chosenUnitId={unitId}
          onChoose={(chosen) => {
            setUnitId(chosen.id);
            setWaitingList(false);
          }}
          onJoinWaitingList={() => {
            setUnitId(null);
            setWaitingList(true);
            setStep(2);
          }}
        />
      )}
      {step === 2 && <ContactStep details={details} onChange={setDetails} />}
      {step === 3 && <ReviewStep unit={unit} waitingList={waitingList} details={details} />}
      {step === 4 && (
        <div className="wizard-done">
          <h3>{waitingList ? "You're on the waiting list" : 'Thank you for your reservation!'}</h3>
          {waitingList ? (
            <p>We will contact you within 24 hours to complete the setup.</p>
          ) : (
            <>
              <p className="wizard-confirm-email">
                <strong>Check your email:</strong> we sent a link to {details.email}. Confirm your reservation from it to hold
                {unit ? ` unit ${unit.unitNumber}` : ' the unit'} for you; until then anyone may rent it.
              </p>
              <p>We will contact you within 24 hours to complete the setup.</p>
            </>
          )}
          <Link href="/" className="button button-primary">
            Back to Home
          </Link>
        </div>
      )}

      {unitTaken && step === 3 && (
        <div className="form-notice form-notice-bad" role="alert">
          <p>{unitTaken}</p>
          <button type="button" className="button button-secondary" onClick={chooseAnotherUnit}>
            Choose Another Unit
          </button>
        </div>
      )}

      {step === 1 && unitId !== null && (
        <div className="wizard-actions">
          <span />
          <button type="button" className="button button-primary" onClick={() => setStep(2)}>
            Continue
          </button>
        </div>
      )}
      {(step === 2 || step === 3) && (
        <div className="wizard-actions">
          <button type="button" className="button button-ghost" onClick={() => setStep(step === 3 ? 2 : 1)}>
            Back
          </button>
          {step === 2 ? (
            <button type="button" className="button button-primary" onClick={() => setStep(3)}>
              Continue to Review
            </button>
          ) : (
            <button type="button" className="button button-primary" onClick={submit} disabled={submitting}>
              {submitting ? 'Submitting...' : waitingList ? 'Join Waiting List' : 'Submit Reservation'}
            </button>
          )}
        </div>
      )}
      <Toast toast={toast} onDismiss={dismissToast} />
    </div>
  );
}
