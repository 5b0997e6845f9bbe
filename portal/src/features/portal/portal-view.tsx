import { ledgerEntryKindLabels } from '@storage/contracts/ledger';
import { useState } from 'react';
import { Link } from 'wouter';
import { AutopayPanel } from './autopay-panel.tsx';
import { BillList } from './bill-list.tsx';
import { ContactDialog } from './contact-dialog.tsx';
import { ContactPlaces, usePortalContact } from './contact-places.tsx';
import { formatCalendarDay, formatDay, formatDollars, formatMoment, hasBalance, unitLabel } from './format.ts';
import { LeaseProtection } from './lease-protection.tsx';
import { LeaseSigning } from './lease-signing.tsx';
import { MessageChoices } from './message-choices.tsx';
import { PaymentList } from './payment-list.tsx';
import { type PortalData, STATEMENT_PDF_URL } from './portal-api.ts';

const tabs = [
  { key: 'overview', label: 'Overview' },
  { key: 'bills', label: 'Bills & Payments' },
  { key: 'statement', label: 'Statement' },
  { key: 'autopay', label: 'Autopay' },
  { key: 'units', label: 'My Units' },
  { key: 'profile', label: 'Profile' },
  { key: 'access', label: 'Access Log' },
] as const;
type TabKey = (typeof tabs)[number]['key'];

/** The unlocked portal: header with the balance badge, and the account's tabs. */
export function PortalView({ data, paymentReceived, onSignOut }: { data: PortalData; paymentReceived: boolean; onSignOut: () => void }) {
  const [tab, setTab] = useState<TabKey>('overview');
  const { profile, account } = data;
  const owes = hasBalance(account.openBalance);
  return (
    <section className="portal">
      {paymentReceived && (
        <div className="portal-banner" role="status">
          <strong>Payment received — thank you!</strong> {owes ? `Your balance is now ${formatDollars(account.openBalance)}.` : 'Your account is all paid up.'}
        </div>
      )}
      <header className="portal-header">
        <div>
          <p className="eyebrow">Customer Portal</p>
          <h1>
            Welcome back, {profile.firstName} {profile.lastName}
          </h1>
        </div>
        <div className="portal-header-actions">
          <span className={`portal-badge ${owes ? 'portal-badge-due' : 'portal-badge-good'}`}>
            {owes ? `${formatDollars(account.openBalance)} Due` : 'ALL GOOD!'}
          </span>
          <button type="button" className="button button-secondary" onClick={onSignOut}>
            Sign Out
          </button>
        </div>
      </header>
      <div className="portal-tabs" role="tablist" aria-label="Your account">
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`panel-${t.key}`}
            className="portal-tab"
            onClick={() => setTab(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="portal-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'overview' && <Overview data={data} onViewBills={() => setTab('bills')} />}
        {tab === 'bills' && <Bills data={data} />}
        {tab === 'statement' && <Statement data={data} />}
        {tab === 'autopay' && <AutopayPanel />}
        {tab === 'units' && <Units data={data} />}
        {tab === 'profile' && <Profile data={data} />}
        {tab === 'access' && <AccessLog data={data} />}
      </div>
    </section>
  );
}

function Overview({ data, onViewBills }: { data: PortalData; onViewBills: () => void }) {
  const { account, units } = data;
  const owes = hasBalance(account.openBalance);
  return (
    <>
      <div className="portal-stats">
        <div className="portal-card">
          <p className="portal-card-label">Account Status</p>
          <p className={`portal-card-value ${account.status === 'OVERDUE' ? 'portal-text-bad' : 'portal-text-good'}`}>{account.status}</p>
        </div>
        <div className="portal-card">
          <p className="portal-card-label">Active Units</p>
          <p className="portal-card-value">{units.length}</p>
        </div>
        <div className="portal-card">
          <p className="portal-card-label">Outstanding Balance</p>
          <p className="portal-card-value">{formatDollars(account.openBalance)}</p>
        </div>
        {hasBalance(account.credit) && (
          <div className="portal-card">
            <p className="portal-card-label">Account Credit</p>
            <p className="portal-card-value portal-text-good" data-testid="portal-credit">
              {formatDollars(account.credit)}
            </p>
          </div>
        )}
      </div>
      {owes ? (
        <div className="portal-card portal-card-alert">
          <h2>Action Required</h2>
          <p>You have an outstanding balance of {formatDollars(account.openBalance)}.</p>
          <button type="button" className="button button-primary" onClick={onViewBills}>
            View & Pay Bills
          </button>
        </div>
      ) : (
        <div className="portal-card portal-card-good">
          <h2>All Good!</h2>
          <p>Your account is up to date. Thank you for being a great customer.</p>
        </div>
      )}
    </>
  );
}

function Bills({ data }: { data: PortalData }) {
  if (data.invoices.length === 0) {
    return (
      <>
        <p className="portal-empty">No bills yet.</p>
        <PaymentList payments={data.payments} />
      </>
    );
  }
  const { account } = data;
  return (
    <>
      {hasBalance(account.openBalance) && (
        <div className="portal-card portal-pay-amount">
          <div>
            <p className="portal-row-title">Balance {formatDollars(account.openBalance)}</p>
            <p className="portal-muted">
              Minimum due {formatDollars(account.minimumDue)}
              {hasBalance(account.credit) && ` · Credit ${formatDollars(account.credit)}`}
            </p>
          </div>
          <Link href="/checkout" className="button button-primary">
            Pay an Amount
          </Link>
        </div>
      )}
      <BillList invoices={data.invoices} />
      <PaymentList payments={data.payments} />
      <BillQuestions />
    </>
  );
}

/** Whom to ask about a bill: the renter's facility (each of them). */
function BillQuestions() {
  const contact = usePortalContact();
  return (
    <section className="portal-card portal-bill-questions" aria-labelledby="bill-questions-title">
      <h2 id="bill-questions-title">Questions about a bill?</h2>
      {contact ? <ContactPlaces contact={contact} subject="A question about my bill" /> : <p className="portal-muted">Loading…</p>}
    </section>
  );
}

/** The renter's ledger: what was charged and paid, in order, with the balance after each; and the same as a PDF. */
function Statement({ data }: { data: PortalData }) {
  const { ledger } = data;
  const credit = ledger.balance.startsWith('-');
  return (
    <div className="portal-statement">
      <div className="portal-statement-head">
        <p className="portal-row-title" data-testid="portal-statement-balance">
          {credit
            ? `Credit as of ${formatCalendarDay(ledger.asOf)}: ${formatDollars(ledger.balance.slice(1))}`
            : `Balance as of ${formatCalendarDay(ledger.asOf)}: ${formatDollars(ledger.balance)}`}
        </p>
        <a className="button button-secondary" href={STATEMENT_PDF_URL} download>
          Download PDF
        </a>
      </div>
      {ledger.entries.length === 0 ? (
        <p className="portal-empty">Nothing charged or paid yet.</p>
      ) : (
        <div className="portal-card portal-table-wrap">
          <table className="portal-table portal-statement-table" aria-label="Your statement">
            <thead>
              <tr>
                <th>Date</th>
                <th>Type</th>
                <th>Description</th>
                <th className="portal-money">Amount</th>
                <th className="portal-money">Balance</th>
              </tr>
            </thead>
            <tbody>
              {ledger.entries.map((entry) => (
                <tr key={entry.id} data-testid="portal-statement-row">
                  <td data-label="Date">{formatCalendarDay(entry.date)}</td>
                  <td data-label="Type">{ledgerEntryKindLabels[entry.kind]}</td>
                  <td data-label="Description" className="portal-wrap">
                    {entry.description}
                  </td>
                  <td data-label="Amount" className="portal-money">
                    {formatDollars(entry.amount)}
                  </td>
                  <td data-label="Balance" className="portal-money">
                    {formatDollars(entry.balance)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Units({ data }: { data: PortalData }) {
  if (data.units.length === 0) return <p className="portal-empty">No active units.</p>;
  return (
    <ul className="portal-list portal-grid">
      {data.units.map((unit) => (
        <li key={unit.leaseId} className="portal-card">
          <p className="portal-row-title">{unitLabel(unit)}</p>
          <p className="portal-muted">Size: {unit.size}</p>
          <p>{formatDollars(unit.monthlyRate)}/month</p>
          {unit.moveOutDate && <p data-testid="portal-move-out">Moves out on {formatCalendarDay(unit.moveOutDate)}</p>}
          {unit.gateCode && (
            <p data-testid="portal-gate-code">
              Gate code: <strong>{unit.gateCode.code}</strong>
              {unit.gateCode.awaitingSignature ? (
                <span className="portal-badge portal-badge-due portal-gate-suspended">Sign your lease to activate it</span>
              ) : (
                !unit.gateCode.active && <span className="portal-badge portal-badge-due portal-gate-suspended">Suspended</span>
              )}
            </p>
          )}
          <p data-testid="portal-access-hours">Access hours: {unit.accessHours}</p>
          <span className="portal-badge portal-badge-good">{unit.status}</span>
          <LeaseSigning leaseId={unit.leaseId} />
          <LeaseProtection leaseId={unit.leaseId} />
        </li>
      ))}
    </ul>
  );
}

function Profile({ data }: { data: PortalData }) {
  const [contactOpen, setContactOpen] = useState(false);
  const { profile } = data;
  return (
    <div className="portal-card">
      <dl className="portal-details">
        <dt>Name</dt>
        <dd>
          {profile.firstName} {profile.lastName}
        </dd>
        <dt>Email</dt>
        <dd>{profile.email}</dd>
        <dt>Phone</dt>
        <dd>{profile.phone ?? '—'}</dd>
        <dt>Address</dt>
        <dd>{profile.address ?? '—'}</dd>
        <dt>Customer Since</dt>
        <dd>{formatDay(profile.createdAt)}</dd>
      </dl>
      <button type="button" className="button button-secondary" onClick={() => setContactOpen(true)}>
        Contact Us to Update Profile
      </button>
      {contactOpen && <ContactDialog onClose={() => setContactOpen(false)} />}
      <MessageChoices />
    </div>
  );
}

function AccessLog({ data }: { data: PortalData }) {
  if (data.accessLogs.length === 0) return <p className="portal-empty">No access recorded yet.</p>;
  return (
    <div className="portal-card portal-table-wrap">
      <table className="portal-table">
        <thead>
          <tr>
            <th>When</th>
            <th>Unit</th>
            <th>Lock</th>
            <th>Method</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {data.accessLogs.map((log) => (
            <tr key={log.id}>
              <td data-label="When">{formatMoment(log.occurredAt)}</td>
              <td data-label="Unit">{log.unitNumber ?? '—'}</td>
              <td data-label="Lock">{log.lockId ?? '—'}</td>
              <td data-label="Method">{log.method ?? '—'}</td>
              <td data-label="Result">
                <span className={`portal-badge ${log.granted ? 'portal-badge-good' : 'portal-badge-due'}`}>{log.granted ? 'Granted' : 'Denied'}</span>{' '}
                {log.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
