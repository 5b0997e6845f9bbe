import type { PortalContact } from '@storage/contracts/portal';
import { useEffect, useState } from 'react';
import { unitLabel } from './format.ts';
import { loadContact } from './portal-api.ts';

/** What is shown when the contact could not be read: no number rather than a wrong one. */
const UNKNOWN: PortalContact = { places: [{ facilityId: null, name: null, phone: null, address: null, units: [] }], email: null };

/** The renter's contact (each facility they rent at), read once when shown; null while it is on its way. */
export function usePortalContact(): PortalContact | null {
  const [contact, setContact] = useState<PortalContact | null>(null);
  useEffect(() => {
    let current = true;
    loadContact().then(
      (answer) => current && setContact(answer),
      () => current && setContact(UNKNOWN),
    );
    return () => {
      current = false;
    };
  }, []);
  return contact;
}

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/**
 * Each place the renter calls, with its address and phone; for a renter of several facilities
 * each under its name with their units there, so they know which number is for which unit.
 * `subject`: the subject line of an email to the business.
 */
export function ContactPlaces({ contact, subject }: { contact: PortalContact; subject: string }) {
  const several = contact.places.length > 1;
  const reachable = contact.email !== null || contact.places.some((place) => place.phone !== null);
  return (
    <div className="portal-contact">
      {contact.places.map((place) => (
        <div key={place.facilityId ?? 'business'} className="portal-contact-place">
          {several && <h3>{place.name}</h3>}
          {several && place.units.length > 0 && (
            <p className="portal-muted">
              Your unit{place.units.length === 1 ? '' : 's'} there: {place.units.map(unitLabel).join(', ')}
            </p>
          )}
          {(place.address || place.phone) && (
            <ul className="portal-contact-list">
              {place.address && <li>Address: {place.address}</li>}
              {place.phone && (
                <li>
                  Phone: <a href={telHref(place.phone)}>{place.phone}</a>
                </li>
              )}
            </ul>
          )}
        </div>
      ))}
      {contact.email && (
        <ul className="portal-contact-list">
          <li>
            Email: <a href={`mailto:${contact.email}?subject=${encodeURIComponent(subject)}`}>{contact.email}</a>
          </li>
        </ul>
      )}
      {!reachable && <p>Please visit the facility office during opening hours.</p>}
    </div>
  );
}
