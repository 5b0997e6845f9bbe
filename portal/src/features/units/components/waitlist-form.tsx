import type { UnitSize } from '@storage/contracts/enums';
import { serverMessage } from '@storage/web-client/api';
import { type FormEvent, useState } from 'react';
import { unitSizeChoices } from '../unit-size.ts';
import { joinWaitlist } from '../units-api.ts';

type Outcome = { status: 'idle' | 'sending' | 'joined' } | { status: 'failed'; message: string };

/** 'Get Notified When Available': the renter's contact details and, optionally, the size wanted. */
export function WaitlistForm() {
  const [outcome, setOutcome] = useState<Outcome>({ status: 'idle' });
  if (outcome.status === 'joined') {
    return (
      <p className="form-notice form-notice-good" role="status">
        You're on the list. We'll let you know as soon as a unit is available.
      </p>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    setOutcome({ status: 'sending' });
    try {
      await joinWaitlist({
        firstName: text('firstName'),
        lastName: text('lastName'),
        email: text('email'),
        phone: text('phone'),
        size: (text('size') || null) as UnitSize | null,
      });
      setOutcome({ status: 'joined' });
    } catch (error) {
      setOutcome({ status: 'failed', message: serverMessage(error as Error) });
    }
  }
  return (
    <form className="form" onSubmit={submit} aria-label="Waiting list">
      <div className="form-grid">
        <label>
          First Name
          <input name="firstName" required autoComplete="given-name" />
        </label>
        <label>
          Last Name
          <input name="lastName" required autoComplete="family-name" />
        </label>
        <label>
          Email
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Phone
          <input name="phone" type="tel" required autoComplete="tel" />
        </label>
        <label>
          Preferred size
          <select name="size" defaultValue="">
            <option value="">Any size</option>
            {unitSizeChoices.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {outcome.status === 'failed' && (
        <p className="form-notice form-notice-bad" role="alert">
          {outcome.message}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={outcome.status === 'sending'}>
        Notify Me
      </button>
    </form>
  );
}
