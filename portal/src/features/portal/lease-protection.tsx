import { formatDollars } from '@storage/contracts/money';
import type { LeaseProtectionView } from '@storage/contracts/protection';
import { apiRequest, serverMessage } from '@storage/web-client/api';
import { type FormEvent, useEffect, useState } from 'react';

// A unit's protection plan in the portal: the plan the renter has (or that they have none), and,
// when the facility offers plans, choosing or changing one (billed from the next bill on).

const protectionPath = (leaseId: string) => `/api/customer/leases/${encodeURIComponent(leaseId)}/protection`;

const planWords = (plan: { name: string; coverageAmount: string; monthlyPremium: string }) =>
  `${plan.name}: ${formatDollars(plan.coverageAmount)} coverage, ${formatDollars(plan.monthlyPremium)} a month`;

export function LeaseProtection({ leaseId }: { leaseId: string }) {
  const [view, setView] = useState<LeaseProtectionView | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [planId, setPlanId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    apiRequest('GET', protectionPath(leaseId))
      .then((response) => response.json() as Promise<LeaseProtectionView>)
      .then(
        (answer) => current && setView(answer),
        () => current && setView(null),
      );
    return () => {
      current = false;
    };
  }, [leaseId]);

  if (!view) return null;
  const { current, insuranceProof, plans } = view;

  async function choose(event: FormEvent) {
    event.preventDefault();
    if (!planId) return setProblem('Please choose a plan.');
    setSaving(true);
    setProblem(null);
    try {
      setView((await (await apiRequest('POST', protectionPath(leaseId), { planId })).json()) as LeaseProtectionView);
      setChoosing(false);
    } catch (error) {
      setProblem(serverMessage(error as Error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="portal-protection" data-testid="portal-protection">
      <span>
        {current
          ? `Protection plan ${planWords(current)}`
          : insuranceProof
            ? `Insured with ${insuranceProof.carrier} (policy ${insuranceProof.policyNumber})`
            : 'No protection plan'}
      </span>
      {plans.length > 0 && !choosing && (
        <button type="button" className="button button-secondary" onClick={() => setChoosing(true)}>
          {current ? 'Change plan' : 'Choose a plan'}
        </button>
      )}
      {choosing && (
        <form className="portal-protection-form" onSubmit={choose} noValidate>
          <label className="portal-field">
            <span>Protection Plan</span>
            <select value={planId} onChange={(e) => setPlanId(e.target.value)}>
              <option value="">Choose a plan</option>
              {plans
                .filter((plan) => plan.planId !== current?.planId)
                .map((plan) => (
                  <option key={plan.planId} value={plan.planId}>
                    {planWords(plan)}
                  </option>
                ))}
            </select>
          </label>
          <p className="portal-protection-note">Billed from your next bill on; bills already sent keep their plan. To cancel a plan, contact us.</p>
          {problem && (
            <p role="alert" className="form-notice form-notice-bad">
              {problem}
            </p>
          )}
          <div className="portal-protection-actions">
            <button type="button" className="button button-secondary" onClick={() => setChoosing(false)}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save Plan'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
