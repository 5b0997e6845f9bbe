import { useEffect } from 'react';
import { ContactPlaces, usePortalContact } from './contact-places.tsx';

/** A name said at the end of a sentence: without its own final period, so "Acme Storage Inc." gives no "Inc..". */
const ending = (name: string) => name.replace(/\.+$/, '');

/** How to reach the renter's facility (each of them, for a renter of several; the business for one of none) to change profile details. */
export function ContactDialog({ onClose }: { onClose: () => void }) {
  const contact = usePortalContact();
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [onClose]);

  const places = contact?.places ?? [];
  const whom = places.length > 1 ? 'the facility where you rent each unit' : places[0]?.name ? ending(places[0].name) : 'your storage facility';
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a pointer shortcut; keyboard users close with Escape (above)
    // biome-ignore lint/a11y/useKeyWithClickEvents: same, Escape is the keyboard way to close
    <div className="portal-dialog-backdrop" onClick={onClose}>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: only keeps a click inside the dialog from reaching the backdrop */}
      <div className="portal-dialog" role="dialog" aria-modal="true" aria-labelledby="contact-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="contact-title">Contact Us</h2>
        <p>To update your profile, contact {whom}.</p>
        {contact && <ContactPlaces contact={contact} subject="Profile update" />}
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
