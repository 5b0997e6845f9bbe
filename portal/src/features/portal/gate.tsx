import type { FormEvent } from 'react';

export interface GateFields {
  email: string;
  phoneLast4: string;
}

/** The portal's lock: email and the last 4 digits of the phone on file. */
export function PortalGate({
  fields,
  verifying,
  onChange,
  onSubmit,
}: {
  fields: GateFields;
  verifying: boolean;
  onChange: (fields: GateFields) => void;
  onSubmit: () => void;
}) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <section className="portal-gate">
      <h1>Customer Portal</h1>
      <p>Enter your email and the last 4 digits of your phone number to view your account, units and bills.</p>
      <form className="portal-form" onSubmit={submit} noValidate>
        <label className="portal-field">
          <span>Email Address</span>
          <input
            type="email"
            name="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={fields.email}
            onChange={(e) => onChange({ ...fields, email: e.target.value })}
          />
        </label>
        <label className="portal-field">
          <span>Last 4 Digits of Phone</span>
          <input
            type="text"
            name="phoneLast4"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            placeholder="1234"
            value={fields.phoneLast4}
            onChange={(e) => onChange({ ...fields, phoneLast4: e.target.value })}
          />
        </label>
        <button type="submit" className="button button-primary button-large" disabled={verifying}>
          {verifying ? 'Verifying...' : 'Access My Account'}
        </button>
      </form>
    </section>
  );
}

/** The gate's second step: the code mailed to the renter when the phone digits alone were not enough. */
export function PortalCodeGate({
  message,
  code,
  verifying,
  onChange,
  onSubmit,
  onResend,
  onBack,
}: {
  message: string;
  code: string;
  verifying: boolean;
  onChange: (code: string) => void;
  onSubmit: () => void;
  onResend: () => void;
  onBack: () => void;
}) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <section className="portal-gate">
      <h1>Check Your Email</h1>
      <p>{message}</p>
      <form className="portal-form" onSubmit={submit} noValidate>
        <label className="portal-field">
          <span>Sign-in Code</span>
          <input
            type="text"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            placeholder="123456"
            value={code}
            onChange={(e) => onChange(e.target.value)}
          />
        </label>
        <button type="submit" className="button button-primary button-large" disabled={verifying}>
          {verifying ? 'Verifying...' : 'Verify Code'}
        </button>
        <button type="button" className="button button-secondary" onClick={onResend} disabled={verifying}>
          Send a New Code
        </button>
        <button type="button" className="button button-ghost" onClick={onBack} disabled={verifying}>
          Use Another Email
        </button>
      </form>
    </section>
  );
}
