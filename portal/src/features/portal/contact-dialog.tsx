import type { PortalContact } from '@storage/contracts/portal';
import { useEffect, useState } from 'react';
import { loadContact } from './portal-api.ts';

/** A name said at the end of a sentence: without its own final period, so "Acme Storage Inc." gives no "Inc..". */
const ending = (name: string) => name.replace(/\.+$/, '');

/** How to reach the renter's facility (or the business) to change profile details. */
export function ContactDialog({ onClose }: { onClose: () => void }) {
  const [contact, setContact] = useState<PortalContact | null>(null);
  useEffect(() => {
    loadContact().then(setContact, () => setContact({ name: null, phone: null, email: null, address: null }));
  }, []);
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [onClose]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a pointer shortcut; keyboard users close with Escape (above)
    // biome-ignore lint/a11y/useKeyWithClickEvents: same, Escape is the keyboard way to close
    <div className="portal-dialog-backdrop" onClick={onClose}>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: only keeps a click inside the dialog from reaching the backdrop */}
      <div className="portal-dialog" role="dialog" aria-modal="true" aria-labelledby="contact-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="contact-title">Contact Us</h2>
        <p>To update your profile, contact {contact?.name ? ending(contact.name) : 'your storage facility'}.</p>
        {contact && (
          <ul className="portal-contact-list">
            {contact.address && <li>Address: {contact.address}</li>}
            {contact.phone && (
              <li>
                Phone: <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a>
              </li>
            )}
            {contact.email && (
              <li>
                Email: <a href={`mailto:${contact.email}?subject=${encodeURIComponent('Profile update')}`}>{contact.email}</a>
              </li>
            )}
            {!contact.phone && !contact.email && <li>Please visit the facility office during opening hours.</li>}
          </ul>
        )}
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
