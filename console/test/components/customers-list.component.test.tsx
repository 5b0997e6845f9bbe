import { Customer } from '@storage/contracts/customers';
import { answerPage, neverAnswer, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import CustomersPage from '../../src/app/routes/customers.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { renderConsole } from './render.tsx';

// The Customers screen's list: its cards, and what it says while loading, when empty and on failure;
// which actions each role is offered.

const grace: Customer = graceHopper({ address: '1 Navy Yard' });
const alan: Customer = {
  ...grace,
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  firstName: 'Alan',
  lastName: 'Turing',
  email: 'alan@example.com',
  status: 'overdue',
};

describe('Customers list', () => {
  it('shows a card per customer with name, email, phone, address and status, and the count', async () => {
    renderConsole(<CustomersPage />, { path: '/customers', api: [answerPage('/api/customers', Customer, [grace, alan], 2)] });
    const cards = await screen.findAllByTestId('customer-card');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByRole('link', { name: 'Grace Hopper' }).getAttribute('href')).toBe(`/customers/${grace.id}`);
    first.getByText('grace.hopper@example.com');
    first.getByText('555-0142');
    first.getByText('1 Navy Yard');
    first.getByText('Active');
    within(cards[1]!).getByText('Overdue');
    expect(screen.getByTestId('list-count').textContent).toBe('2 customers');
  });

  it('asks a first-time user to add a customer when there are none', async () => {
    renderConsole(<CustomersPage />, { path: '/customers', api: [answerPage('/api/customers', Customer, [])] });
    await screen.findByText('No customers found');
    screen.getByText('Get started by adding your first customer');
  });

  it('suggests adjusting the search when a search finds no one', async () => {
    const list = answerPage('/api/customers', Customer, []);
    renderConsole(<CustomersPage />, { path: '/customers?search=nobody-matches-this', api: [list] });
    await screen.findByText('No customers found');
    screen.getByText('Try adjusting your search terms');
    expect(list.sent[0]!.search.get('search')).toBe('nobody-matches-this');
    expect((screen.getByPlaceholderText('Search customers by name, email, or phone...') as HTMLInputElement).value).toBe('nobody-matches-this');
  });

  it('shows six placeholder cards while the customers load', async () => {
    renderConsole(<CustomersPage />, { path: '/customers', api: [neverAnswer('get', '/api/customers')] });
    await screen.findByText('Customers');
    expect(document.querySelectorAll('.ant-card .ant-skeleton')).toHaveLength(6);
    expect(screen.queryByTestId('customer-card')).toBeNull();
    expect(screen.queryByText('No customers found')).toBeNull();
  });

  it("says the list could not load, in the server's words", async () => {
    renderConsole(<CustomersPage />, { path: '/customers', api: [refuse('get', '/api/customers', 503, { message: 'The read model is rebuilding' })] });
    await screen.findByText('Could not load customers');
    screen.getByText('The read model is rebuilding');
  });

  it('offers an owner Add Customer, Edit and Delete on each card', async () => {
    renderConsole(<CustomersPage />, { path: '/customers', api: [answerPage('/api/customers', Customer, [grace])] });
    const card = within(await screen.findByTestId('customer-card'));
    await screen.findByRole('button', { name: /Add Customer/ });
    await card.findByRole('button', { name: /Edit/ });
    card.getByRole('button', { name: /Delete/ });
  });

  it('offers an auditor no Add Customer, Edit or Delete, only the history', async () => {
    renderConsole(<CustomersPage />, { role: 'auditor', path: '/customers', api: [answerPage('/api/customers', Customer, [grace])] });
    const card = within(await screen.findByTestId('customer-card'));
    await card.findByRole('button', { name: /History/ });
    expect(screen.queryByRole('button', { name: /Add Customer/ })).toBeNull();
    expect(card.queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
  });
});
