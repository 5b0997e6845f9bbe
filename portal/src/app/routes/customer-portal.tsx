import { ApiError, serverMessage } from '@storage/web-client/api';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { returnPath } from '../../features/portal/after-gate.ts';
import { type GateFields, PortalCodeGate, PortalGate } from '../../features/portal/gate.tsx';
import {
  loadPortalData,
  loadPortalDataIfSignedIn,
  type PortalData,
  signOutCustomer,
  verifyCustomer,
  verifyCustomerCode,
} from '../../features/portal/portal-api.ts';
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
  // The mailed code's step, once the gate asked for it: its message and what the renter typed.
  const [codeStep, setCodeStep] = useState<{ message: string; code: string } | null>(null);

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
      const answer = await verifyCustomer(email, phoneLast4);
      if ('codeSent' in answer) {
        setCodeStep({ message: answer.message, code: '' });
        setVerifying(false);
        return;
      }
    } catch (error) {
      show(gateFailure(error as Error));
      setVerifying(false);
      return;
    }
    await openPortal();
  }

  async function verifyCode() {
    if (!codeStep) return;
    if (!codeStep.code.trim()) {
      show({ title: 'Missing Information', description: 'Please enter the code we emailed you.', tone: 'error' });
      return;
    }
    setVerifying(true);
    try {
      await verifyCustomerCode(fields.email.trim(), codeStep.code.trim());
    } catch (error) {
      show(gateFailure(error as Error));
      setVerifying(false);
      return;
    }
    setCodeStep(null);
    await openPortal();
  }

  /** After the gate: back to the page that sent the renter here, or the portal itself. */
  async function openPortal() {
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
    setCodeStep(null);
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
        ) : codeStep ? (
          <PortalCodeGate
            message={codeStep.message}
            code={codeStep.code}
            verifying={verifying}
            onChange={(code) => setCodeStep({ ...codeStep, code })}
            onSubmit={verifyCode}
            onResend={verify}
            onBack={() => setCodeStep(null)}
          />
        ) : (
          <PortalGate fields={fields} verifying={verifying} onChange={setFields} onSubmit={verify} />
        )}
      </main>
      <SiteFooter />
      <Toast toast={toast} onDismiss={dismiss} />
    </>
  );
}
