import { Ledger } from '@storage/contracts/ledger';
import { MessagePreferences } from '@storage/contracts/messages';
import { PortalAccount, PortalContact, PortalInvoice, type PortalInvoiceLine, PortalProfile } from '@storage/contracts/portal';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PortalData } from '../../src/features/portal/portal-api.ts';
import { PortalView } from '../../src/features/portal/portal-view.tsx';
import { type RenderOptions, renderPortal } from './render.tsx';

// The unlocked portal's bills and whom to call: each bill's charges (kind, words, amount) in the
// order the API gives them, with the total and what is still owed; and the facility of each of the
// renter's leases, with its own phone. Which lines and facilities the renter gets is the API's to
// test (api/test/portal-bills-contact.api.test.ts).

const line = (kind: PortalInvoiceLine['kind'], label: string, description: string, amount: string): PortalInvoiceLine => ({
  kind,
  label,
  description,
  amount,
  periodStart: null,
  periodEnd: null,
});

const april = PortalInvoice.parse({
  id: '8a3b6c1e-1d2f-4a5b-9c8d-7e6f5a4b3c2d',
  customerId: '9ac943f5-fb0b-4e33-a04d-f6d204d622f0',
  invoiceNumber: 'INV-1002',
  amount: '103.20',
  openBalance: '63.20',
  description: 'Rent Apr 1 – Apr 30, 2026',
  lines: [
    line('rent', 'Rent', 'Rent Apr 1 – Apr 30, 2026', '100.00'),
    line('protection', 'Protection plan', 'Protection plan $2,000', '12.00'),
    line('discount', 'Promotion', 'First month half off', '-50.00'),
    line('merchandise', 'Merchandise', 'Disc lock', '15.00'),
    line('tax', 'Sales tax', 'Sales tax 8%', '1.20'),
    line('late_fee', 'Late fee', 'Late fee', '25.00'),
  ],
  dueDate: '2026-04-01',
  status: 'overdue',
});

const march = PortalInvoice.parse({
  id: '9b4c7d2f-2e3a-4b6c-8d9e-8f7a6b5c4d3e',
  customerId: april.customerId,
  invoiceNumber: 'INV-1001',
  amount: '100.00',
  openBalance: '0.00',
  description: 'Rent Mar 1 – Mar 31, 2026',
  lines: [line('rent', 'Rent', 'Rent Mar 1 – Mar 31, 2026', '100.00')],
  dueDate: '2026-03-01',
  status: 'paid',
});

const data: PortalData = {
  profile: PortalProfile.parse({
    firstName: 'Rita',
    lastName: 'Renter',
    email: 'rita@example.com',
    phone: '555-0100',
    address: null,
    createdAt: '2025-01-02T10:00:00.000Z',
  }),
  account: PortalAccount.parse({ openBalance: '63.20', status: 'OVERDUE', minimumDue: '63.20', credit: '0.00' }),
  invoices: [april, march],
  payments: [],
  units: [],
  accessLogs: [],
  ledger: Ledger.parse({
    customer: { id: april.customerId, firstName: 'Rita', lastName: 'Renter', address: null },
    asOf: '2026-04-20',
    from: null,
    openingBalance: '0.00',
    entries: [],
    balance: '63.20',
  }),
};

const tacoma = { facilityId: '01894bf2-2484-4545-82ef-625649266e12', name: 'Tacoma Storage', phone: '(253) 555-0101', address: '1 Harbor Way, Tacoma' };
const portland = { facilityId: '89afc14b-84b7-4b7f-a16b-7ee7f5fae136', name: 'Portland Storage', phone: '(503) 555-0100', address: '2 River St, Portland' };
const email = 'office@example.com';
const twoFacilities: PortalContact = {
  places: [
    {
      ...portland,
      units: [
        { building: 'B', unitNumber: '201' },
        { building: 'B', unitNumber: '202' },
      ],
    },
    { ...tacoma, units: [{ building: 'A', unitNumber: '101' }] },
  ],
  email,
};

function openPortal(contact: PortalContact, api: RenderOptions['api'] = []) {
  return renderPortal(<PortalView data={data} paymentReceived={false} onSignOut={() => {}} />, {
    path: '/customer-portal',
    // The test's own answers first: they win over the contact given.
    api: [...api, answer('get', '/api/customer/contact', PortalContact, contact)],
  });
}

/** The Profile tab also reads the renter's message choices. */
const preferences = () => answer('get', '/api/customer/message-preferences', MessagePreferences, { optOuts: [], optional: [], alwaysSent: [] });

const billOf = (invoiceNumber: string) => screen.getByText(invoiceNumber).closest('li')!;
const chargesOf = (invoiceNumber: string) =>
  [...screen.getByRole('region', { name: `Charges on ${invoiceNumber}`, hidden: true }).querySelectorAll('[data-testid="portal-bill-line"]')].map((row) =>
    [...row.querySelectorAll('span')].filter((cell) => cell.children.length === 0).map((cell) => cell.textContent),
  );
const totalsOf = (invoiceNumber: string) =>
  [...screen.getByRole('region', { name: `Charges on ${invoiceNumber}`, hidden: true }).querySelectorAll('dl > div')].map((row) =>
    [...row.children].map((cell) => cell.textContent),
  );

describe('the portal’s bills', () => {
  it('shows each charge of an unpaid bill in order, by kind, with the total and what is still owed', async () => {
    const { user } = openPortal(twoFacilities);
    await user.click(screen.getByRole('tab', { name: 'Bills & Payments' }));

    const charges = screen.getByRole('region', { name: 'Charges on INV-1002' });
    expect(charges.hidden).toBe(false);
    expect(chargesOf('INV-1002')).toEqual([
      ['Rent', 'Rent Apr 1 – Apr 30, 2026', '$100.00'],
      ['Protection plan', 'Protection plan $2,000', '$12.00'],
      ['Promotion', 'First month half off', '-$50.00'],
      ['Merchandise', 'Disc lock', '$15.00'],
      ['Sales tax', 'Sales tax 8%', '$1.20'],
      // A line whose words are its kind says them once.
      ['Late fee', '$25.00'],
    ]);
    expect(totalsOf('INV-1002')).toEqual([
      ['Total', '$103.20'],
      ['Still owed', '$63.20'],
    ]);
    expect(within(billOf('INV-1002')).getByText('left of $103.20').parentElement!.textContent).toBe('$63.20 left of $103.20');

    const toggle = within(billOf('INV-1002')).getByRole('button', { name: 'Hide charges' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(toggle);
    expect(charges.hidden).toBe(true);
    expect(toggle.textContent).toBe('Show charges (6 charges)');
  });

  it('keeps a paid bill’s charges folded until asked, then shows them with nothing owed', async () => {
    const { user } = openPortal(twoFacilities);
    await user.click(screen.getByRole('tab', { name: 'Bills & Payments' }));
    const paid = within(billOf('INV-1001'));
    expect(screen.queryByRole('region', { name: 'Charges on INV-1001' })).toBeNull();
    const toggle = paid.getByRole('button', { name: 'Show charges (1 charge)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    screen.getByRole('region', { name: 'Charges on INV-1001' });
    expect(chargesOf('INV-1001')).toEqual([['Rent', 'Rent Mar 1 – Mar 31, 2026', '$100.00']]);
    expect(totalsOf('INV-1001')).toEqual([
      ['Total', '$100.00'],
      ['Still owed', '$0.00'],
    ]);
    expect(paid.queryByRole('link', { name: 'Pay Now' })).toBeNull();
  });
});

describe('whom the renter calls', () => {
  const placeCalled = (region: HTMLElement, name: string) => within(region).getByRole('heading', { name }).parentElement!;

  it('names each facility of a renter of two, with its own phone and their units there, under their bills', async () => {
    const { user } = openPortal(twoFacilities);
    await user.click(screen.getByRole('tab', { name: 'Bills & Payments' }));
    const help = screen.getByRole('region', { name: 'Questions about a bill?' });
    await within(help).findByRole('heading', { name: 'Portland Storage' });

    const portlandPlace = within(placeCalled(help, 'Portland Storage'));
    portlandPlace.getByText('Your units there: B-201, B-202');
    portlandPlace.getByText('Address: 2 River St, Portland');
    expect(portlandPlace.getByRole('link', { name: '(503) 555-0100' }).getAttribute('href')).toBe('tel:5035550100');
    const tacomaPlace = within(placeCalled(help, 'Tacoma Storage'));
    tacomaPlace.getByText('Your unit there: A-101');
    expect(tacomaPlace.getByRole('link', { name: '(253) 555-0101' }).getAttribute('href')).toBe('tel:2535550101');
    expect(tacomaPlace.queryByText(/503/)).toBeNull();
    expect(within(help).getByRole('link', { name: email }).getAttribute('href')).toBe(`mailto:${email}?subject=A%20question%20about%20my%20bill`);
  });

  it('tells a renter of one facility to contact it by name, with its phone and address, in the Contact Us dialog', async () => {
    const { user } = openPortal({ places: [{ ...tacoma, units: [{ building: 'A', unitNumber: '101' }] }], email }, [preferences()]);
    await user.click(screen.getByRole('tab', { name: 'Profile' }));
    await user.click(screen.getByRole('button', { name: 'Contact Us to Update Profile' }));
    const dialog = screen.getByRole('dialog', { name: 'Contact Us' });
    await within(dialog).findByText('To update your profile, contact Tacoma Storage.');
    within(dialog).getByText('Address: 1 Harbor Way, Tacoma');
    within(dialog).getByRole('link', { name: '(253) 555-0101' });
    within(dialog).getByRole('link', { name: email });
    // One facility needs no heading or unit list.
    expect(within(dialog).queryByRole('heading', { name: 'Tacoma Storage' })).toBeNull();
  });

  it('lists both facilities in the dialog for a renter of two, and the business for a renter of none', async () => {
    const first = openPortal(twoFacilities, [preferences()]);
    await first.user.click(screen.getByRole('tab', { name: 'Profile' }));
    await first.user.click(screen.getByRole('button', { name: 'Contact Us to Update Profile' }));
    const dialog = screen.getByRole('dialog', { name: 'Contact Us' });
    await within(dialog).findByText('To update your profile, contact the facility where you rent each unit.');
    expect(
      within(dialog)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Portland Storage', 'Tacoma Storage']);
    expect(
      within(dialog)
        .getAllByRole('link', { name: /555-01/ })
        .map((a) => a.textContent),
    ).toEqual(['(503) 555-0100', '(253) 555-0101']);
    first.unmount();

    const business = { facilityId: null, name: 'Riverside Self Storage Inc.', phone: '(800) 555-0199', address: null, units: [] };
    const second = openPortal({ places: [business], email }, [preferences()]);
    await second.user.click(screen.getByRole('tab', { name: 'Profile' }));
    await second.user.click(screen.getByRole('button', { name: 'Contact Us to Update Profile' }));
    const fallback = screen.getByRole('dialog', { name: 'Contact Us' });
    await within(fallback).findByText('To update your profile, contact Riverside Self Storage Inc.');
    within(fallback).getByRole('link', { name: '(800) 555-0199' });
  });

  it('gives no number rather than a wrong one when the contact cannot be read', async () => {
    const { user } = openPortal(twoFacilities, [refuse('get', '/api/customer/contact', 503, { message: 'Try again later' })]);
    await user.click(screen.getByRole('tab', { name: 'Bills & Payments' }));
    const help = screen.getByRole('region', { name: 'Questions about a bill?' });
    await within(help).findByText('Please visit the facility office during opening hours.');
    expect(within(help).queryByRole('link')).toBeNull();
  });
});
