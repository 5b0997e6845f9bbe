import { PaymentProfile } from '@storage/contracts/autopay';
import { Customer, CustomerAccount } from '@storage/contracts/customers';
import { Lease } from '@storage/contracts/leases';
import { LeaseProtectionView } from '@storage/contracts/protection';
import { LeaseRentChanges } from '@storage/contracts/rent-changes';
import { answer, answerPage, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import CustomerPage from '../../src/app/routes/customer.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { type RenderOptions, renderConsole } from './render.tsx';

// The customer page: what it says for a link that names no customer, and which actions each role
// is offered (an auditor changes nothing, a clerk takes payments, owners and managers give money back).

const grace: Customer = graceHopper();
const lease: Lease = {
  id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  customer: { id: grace.id, firstName: grace.firstName, lastName: grace.lastName, email: grace.email, phone: grace.phone },
  unit: { id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e', unitNumber: 'A101', size: '10x10', building: 'A', facilityId: null },
  isActive: true,
  monthlyRate: '120.00',
  depositAmount: null,
  startDate: '2025-01-02',
  endDate: null,
  moveOutDate: null,
  createdAt: '2025-01-02T10:00:00.000Z',
  invoiceSummary: { paid: 3, overdue: 0, total: 3 },
};
const account: CustomerAccount = { openBalance: '120.00', standing: 'CURRENT', credit: '0.00', payments: [] };

function openPage(role: RenderOptions['role'], customerId = grace.id, api: RenderOptions['api'] = []) {
  return renderConsole(
    <Route path="/customers/:customerId">
      <CustomerPage />
    </Route>,
    { role, path: `/customers/${customerId}`, api },
  );
}

const grace200 = () => [
  answer('get', `/api/customers/${grace.id}`, Customer, grace),
  answer('get', `/api/customers/${grace.id}/account`, CustomerAccount, account),
  answerPage('/api/leases', Lease, [lease]),
  answer('get', `/api/leases/${lease.id}/rent-changes`, LeaseRentChanges, {
    terms: { today: '2025-06-01', noticeDays: 30, earliestEffectiveDate: '2025-07-01' },
    changes: [],
  }),
  answer('get', `/api/leases/${lease.id}/protection`, LeaseProtectionView, { leaseId: lease.id, current: null, history: [], insuranceProof: null, plans: [] }),
  answer('get', `/api/customers/${grace.id}/payment-profile`, PaymentProfile, {
    cards: [],
    autopay: false,
    automaticCharging: true,
    provider: 'test',
    charges: [],
  }),
];

describe('customer page', () => {
  it('says so for a link that names no customer, and its button goes back to the list', async () => {
    const unknown = '0b7d5f3e-1111-4222-8333-444455556666';
    const { user } = openPage('owner', unknown, [
      refuse('get', `/api/customers/${unknown}`, 404, { message: 'Customer not found' }),
      refuse('get', `/api/customers/${unknown}/account`, 404, { message: 'Customer not found' }),
    ]);
    await screen.findByText('Customer not found');
    screen.getByText('No customer has this link. They may have been archived, or the link is mistyped.');
    await user.click(screen.getByRole('button', { name: 'Back to Customers' }));
    expect(window.location.pathname).toBe('/customers');
  });

  it('shows an auditor the balance and the history, and no action that changes anything', async () => {
    openPage('auditor', grace.id, grace200());
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    await within(await screen.findByTestId('customer-balance')).findByText('Outstanding Balance');
    await screen.findByTestId('lease-card');
    screen.getByRole('tab', { name: 'History' });
    expect(screen.queryByRole('button', { name: /Take Payment|Sell Items|Give Credit|Refund Credit|Edit|Delete|Move Out|Change Status/ })).toBeNull();
  });

  it('lets a clerk take a payment but not give money back, and shows no history', async () => {
    openPage('clerk', grace.id, grace200());
    await screen.findByRole('button', { name: 'Take Payment' });
    screen.getByRole('button', { name: 'Sell Items' });
    screen.getByRole('button', { name: /Edit/ });
    await within(await screen.findByTestId('lease-card')).findByRole('button', { name: /Move Out/ });
    expect(screen.queryByRole('button', { name: /Give Credit|Refund Credit/ })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'History' })).toBeNull();
  });

  it('lets a manager give credit and refund it', async () => {
    openPage('manager', grace.id, grace200());
    await screen.findByRole('button', { name: 'Give Credit' });
    screen.getByRole('button', { name: 'Refund Credit' });
    screen.getByRole('button', { name: 'Take Payment' });
  });
});
