import { RecentCustomer } from '@storage/contracts/dashboard';
import { answer } from '@storage/testing/component-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RecentCustomersTable } from '../../src/features/dashboard/components/recent-customers-table.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { type RenderOptions, renderConsole } from './render.tsx';

// The dashboard's Recent Customers: every member may open a customer; only those who change
// things are offered Edit (an auditor's save would be refused).

const grace: RecentCustomer = { ...graceHopper(), unitNumbers: ['A101'], monthlyRate: '120.00' };

function openTable(role: RenderOptions['role']) {
  return renderConsole(<RecentCustomersTable onEdit={() => {}} />, {
    role,
    path: '/',
    api: [answer('get', '/api/dashboard/recent-customers', RecentCustomer.array(), [grace])],
  });
}

describe('recent customers', () => {
  it('offers an auditor View but not Edit', async () => {
    openTable('auditor');
    await screen.findByRole('button', { name: /View$/ });
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
  });

  it('offers a clerk View and Edit', async () => {
    openTable('clerk');
    await screen.findByRole('button', { name: /Edit/ });
    screen.getByRole('button', { name: /View$/ });
  });
});
