import type { LeaseToSign, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import { ApiError, serverMessage } from '@storage/web-client/api';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { formatMoment } from './format.ts';
import { loadLeaseToSign, signedLeasePdfPath, signLeaseOnline } from './lease-signing-api.ts';
import { SignaturePad } from './signature-pad.tsx';

// A unit's lease agreement in the portal: signed (by whom, when, and the signed PDF), or awaiting
// the renter's signature, which they give here: read the agreement, type their name, draw.

/** The lease's signature state, read when shown; null while it is on its way (or could not be read). */
function useLeaseToSign(leaseId: string) {
  const [toSign, setToSign] = useState<LeaseToSign | null>(null);
  const reload = useCallback(() => loadLeaseToSign(leaseId).then(setToSign, () => setToSign(null)), [leaseId]);
  useEffect(() => {
    let current = true;
    loadLeaseToSign(leaseId).then(
      (answer) => current && setToSign(answer),
      () => current && setToSign(null),
    );
    return () => {
      current = false;
    };
  }, [leaseId]);
  return { toSign, reload };
}

export function LeaseSigning({ leaseId }: { leaseId: string }) {
  const { toSign, reload } = useLeaseToSign(leaseId);
  const [signing, setSigning] = useState(false);
  if (!toSign) return null;
  const { signature } = toSign;
  return (
    <div data-testid="portal-lease-signature" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
      {signature ? (
        <>
          <span>
            Lease signed by {signature.signerName} on {formatMoment(signature.signedAt)}
          </span>
          <a className="button button-secondary" href={signedLeasePdfPath(leaseId)} download>
            Download signed lease
          </a>
        </>
      ) : (
        <>
          <span className="portal-badge portal-badge-due">Awaiting your signature</span>
          <button type="button" className="button button-primary" onClick={() => setSigning(true)}>
            Review and sign
          </button>
        </>
      )}
      {signing && (
        <SignLeaseDialog
          toSign={toSign}
          onChanged={reload}
          onSigned={() => {
            setSigning(false);
            void reload();
          }}
          onClose={() => setSigning(false)}
        />
      )}
    </div>
  );
}

/** The agreement to read and sign; `sign` sends it (the portal's own route unless given: an online rental signs by its link). */
export function SignLeaseDialog({
  toSign,
  onSigned,
  onChanged,
  onClose,
  sign = (request) => signLeaseOnline(toSign.leaseId, request),
}: {
  toSign: LeaseToSign;
  onSigned: () => void;
  onChanged: () => void;
  onClose: () => void;
  sign?: (request: SignLeaseRequest) => Promise<unknown>;
}) {
  const [signerName, setSignerName] = useState('');
  const [mark, setMark] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [onClose]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!signerName.trim()) return setProblem('Please type your full name.');
    if (!mark) return setProblem('Please draw your signature.');
    setProblem(null);
    setSaving(true);
    try {
      await sign({ signerName: signerName.trim(), mark, documentSha256: toSign.documentSha256 });
      onSigned();
    } catch (error) {
      setProblem(serverMessage(error as Error));
      // The lease changed: the agreement as it is now replaces the one shown, to be read again.
      if (error instanceof ApiError && error.status === 409) onChanged();
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="portal-dialog-backdrop">
      <form className="portal-dialog" role="dialog" aria-modal="true" aria-labelledby="sign-title" style={{ maxWidth: 640 }} onSubmit={submit} noValidate>
        <h2 id="sign-title">Sign Your Lease</h2>
        <p>Please read your lease agreement, type your full name and draw your signature.</p>
        <section aria-label="Lease agreement">
          <pre
            data-testid="agreement-text"
            style={{
              maxHeight: 260,
              overflow: 'auto',
              whiteSpace: 'pre-wrap',
              padding: 12,
              border: '1px solid #e2e8f0',
              borderRadius: 8,
              margin: 0,
              fontSize: 13,
            }}
          >
            {toSign.text}
          </pre>
        </section>
        <label className="portal-field">
          <span>Full Name</span>
          <input type="text" name="signerName" autoComplete="name" value={signerName} onChange={(e) => setSignerName(e.target.value)} />
        </label>
        <SignaturePad onChange={setMark} />
        {problem && (
          <p role="alert" style={{ color: '#b91c1c', margin: 0 }}>
            {problem}
          </p>
        )}
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? 'Signing…' : 'Sign'}
          </button>
        </div>
      </form>
    </div>
  );
}
