import type { MessageTemplateKey } from '@storage/contracts/enums';
import { type MessagePreferences, messageTemplateLabels } from '@storage/contracts/messages';
import { apiRequest, serverMessage } from '@storage/web-client/api';
import { useEffect, useState } from 'react';

/** The renter's own choice of the messages we email them; legal notices are always sent. */
export function MessageChoices() {
  const [preferences, setPreferences] = useState<MessagePreferences | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    apiRequest('GET', '/api/customer/message-preferences')
      .then((response) => response.json())
      .then(setPreferences, (failure: Error) => setError(serverMessage(failure)));
  }, []);

  const toggle = async (key: MessageTemplateKey, wanted: boolean) => {
    if (!preferences) return;
    const before = preferences;
    const optOuts = wanted ? preferences.optOuts.filter((k) => k !== key) : [...preferences.optOuts, key];
    // The box follows the click at once; the server's answer then stands (or the old choice, if it refused).
    setPreferences({ ...preferences, optOuts });
    setSaving(true);
    setSaved(false);
    setError(null);
    try {
      setPreferences(await (await apiRequest('PUT', '/api/customer/message-preferences', { optOuts })).json());
      setSaved(true);
    } catch (failure) {
      setPreferences(before);
      setError(serverMessage(failure as Error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="portal-card" aria-labelledby="message-choices-title" data-testid="message-choices">
      <h3 id="message-choices-title">Emails we send you</h3>
      {error && <p role="alert">{error}</p>}
      {!preferences && !error && <p>Loading…</p>}
      {preferences && (
        <>
          <ul className="portal-list" style={{ listStyle: 'none', padding: 0 }}>
            {preferences.optional.map((key) => (
              <li key={key}>
                <label>
                  <input
                    type="checkbox"
                    checked={!preferences.optOuts.includes(key)}
                    disabled={saving}
                    onChange={(event) => void toggle(key, event.target.checked)}
                  />{' '}
                  {messageTemplateLabels[key]}
                </label>
              </li>
            ))}
          </ul>
          <p className="portal-muted">Always sent, as the law requires: {preferences.alwaysSent.map((key) => messageTemplateLabels[key]).join(', ')}.</p>
          <p aria-live="polite">{saved ? 'Your choices are saved.' : ''}</p>
        </>
      )}
    </section>
  );
}
