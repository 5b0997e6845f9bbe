import { ApiError, serverMessage } from '@storage/web-client/api';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { returnPath } from '../../features/portal/after-gate.ts';
import { type GateFields, PortalGate } from '../../features/portal/gate.tsx';
import { loadPortalData, loadPortalDataIfSignedIn, type PortalData, signOutCustomer, verifyCustomer } from '../../features/portal/portal-api.ts';
import { PortalView } from '../../features/portal/portal-view.tsx';
import { Toast, type ToastMessage, useToast } from '../../features/portal/toast.tsx';

const toastTitles: Record<number, string> = {
  401: 'Verification Failed',
  404: 'Customer Not Found',
  429: 'Too Many Attempts',
};

function gateFailure(error: Error): ToastMessage {
  const title = (error instanceof ApiError && toastTitles[error.status]) || 'Verification Failed';
  return { title, description: serverMessage(error), tone: 'error' };
}

export default function CustomerPortalPage() {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const paymentReceived = params.get('payment_success') === 'true';
  const { toast, show, dismiss } = useToast();
  const [fields, setFields] = useState<GateFields>({ email: '', phoneLast4: '' });
  const [data, setData] = useState<PortalData | null>(null);
  const [opening, setOpening] = useState(true);
  const [verifying, setVerifying] = useState(false);

  // A live portal session (a reload, or the way back from checkout) opens the portal unlocked.
  useEffect(() => {
    loadPortalDataIfSignedIn()
      .then(setData, () => undefined)
      .finally(() => setOpening(false));
  }, []);

  async function verify() {
    const email = fields.email.trim();
    const phoneLast4 = fields.phoneLast4.trim();
    if (!email || !phoneLast4) {
      show({ title: 'Missing Information', description: 'Please enter both email and phone number.', tone: 'error' });
      return;
    }
    setVerifying(true);
    try {
      await verifyCustomer(email, phoneLast4);
    } catch (error) {
      show(gateFailure(error as Error));
      setVerifying(false);
      return;
    }
    const back = returnPath(params.get('next'));
    if (back) {
      navigate(back);
      return;
    }
    try {
      setData(await loadPortalData());
    } catch {
      show({ title: 'Customer Not Found', description: "We couldn't find an account with that email address.", tone: 'error' });
    } finally {
      setVerifying(false);
    }
  }

  async function signOut() {
    try {
      await signOutCustomer();
    } catch (error) {
      show({ title: 'Sign Out Failed', description: serverMessage(error as Error), tone: 'error' });
      return;
    }
    setData(null);
    setFields({ email: '', phoneLast4: '' });
  }

  return (
    <>
      <SiteHeader />
      <main className="container portal-page">
        {opening ? (
          <div className="page-loading" role="status" aria-label="Loading" />
        ) : data ? (
          <PortalView data={data} paymentReceived={paymentReceived} onSignOut={signOut} />
        ) : (
          <PortalGate fields={fields} verifying={verifying} onChange={setFields} onSubmit={verify} />
        )}
      </main>
      <SiteFooter />
      <Toast toast={toast} onDismiss={dismiss} />
    </>
  );
}
