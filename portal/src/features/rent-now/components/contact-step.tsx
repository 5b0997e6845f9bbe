import { type ContactDetails, contactLabels, localToday } from '../reservation-form.ts';

const inputs: ReadonlyArray<{ field: keyof ContactDetails; type?: string; autoComplete?: string; required?: boolean }> = [
  { field: 'firstName', autoComplete: 'given-name', required: true },
  { field: 'lastName', autoComplete: 'family-name', required: true },
  { field: 'email', type: 'email', autoComplete: 'email', required: true },
  { field: 'phone', type: 'tel', autoComplete: 'tel', required: true },
  { field: 'address', autoComplete: 'street-address' },
  { field: 'emergencyContact' },
  { field: 'emergencyPhone', type: 'tel' },
  { field: 'moveInDate', type: 'date', required: true },
];

export function ContactStep({ details, onChange }: { details: ContactDetails; onChange(details: ContactDetails): void }) {
  return (
    <div className="form-grid">
      {inputs.map(({ field, type, autoComplete, required }) => (
        <label key={field}>
          {contactLabels[field]}
          {required && <span aria-hidden="true"> *</span>}
          <input
            name={field}
            type={type ?? 'text'}
            autoComplete={autoComplete}
            min={field === 'moveInDate' ? localToday() : undefined}
            value={details[field]}
            onChange={(event) => onChange({ ...details, [field]: event.target.value })}
          />
        </label>
      ))}
      <label className="form-grid-wide">
        {contactLabels.specialRequests}
        <textarea
          name="specialRequests"
          rows={3}
          value={details.specialRequests}
          onChange={(event) => onChange({ ...details, specialRequests: event.target.value })}
        />
      </label>
    </div>
  );
}
