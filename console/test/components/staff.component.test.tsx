import { ReadModelFailure } from '@storage/contracts/read-model';
import { StaffMember } from '@storage/contracts/staff';
import { answer, answerPage, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SettingsPage from '../../src/app/routes/settings.tsx';
import { StaffCard } from '../../src/features/staff/components/staff-card.tsx';
import { fill, type RenderOptions, renderConsole, signedIn } from './render.tsx';
import { settingsScreenAnswers } from './settings-fixtures.ts';

// Staff management in Settings: the Add Staff Member form's checks, the server's word on a
// temporary password under its field, and that only an owner sees the staff card.

const owner = signedIn('owner');
const ownerRow: StaffMember = {
  id: '2b3c4d5e-6f70-4819-9a2b-3c4d5e6f7081',
  email: owner.email,
  firstName: owner.firstName,
  lastName: owner.lastName,
  role: 'owner',
  status: 'active',
  twoFactorEnabled: false,
  createdAt: '2025-01-02T10:00:00.000Z',
};
const marta: StaffMember = {
  ...ownerRow,
  id: '3c4d5e6f-7081-492a-8b3c-4d5e6f708192',
  email: 'marta.manager@demo.test',
  firstName: 'Marta',
  lastName: 'Manager',
  role: 'manager',
};

async function openAddStaff(api: RenderOptions['api'] = []) {
  const rendered = renderConsole(<StaffCard currentUserId={ownerRow.id} />, {
    path: '/settings',
    api: [answerPage('/api/staff', StaffMember, [ownerRow]), ...api],
  });
  const card = within(await screen.findByTestId('staff-card'));
  await card.findByTestId('staff-row');
  await rendered.user.click(card.getByRole('button', { name: /Add Staff Member/ }));
  const dialog = within(await screen.findByRole('dialog'));
  return { ...rendered, dialog };
}

async function fillMember(
  user: Awaited<ReturnType<typeof openAddStaff>>['user'],
  dialog: Awaited<ReturnType<typeof openAddStaff>>['dialog'],
  password: string,
) {
  await fill(user, dialog.getByLabelText('Email'), 'marta.manager@demo.test');
  await fill(user, dialog.getByLabelText('First Name'), 'Marta');
  await fill(user, dialog.getByLabelText('Last Name'), 'Manager');
  await user.click(dialog.getByLabelText('Role'));
  await user.click(await screen.findByTitle('Manager'));
  await fill(user, dialog.getByLabelText('Temporary Password'), password);
  await user.click(dialog.getByRole('button', { name: 'Add Staff Member' }));
}

describe('Add Staff Member', () => {
  it('asks for the email, and says what a temporary password needs', async () => {
    const { user, dialog } = await openAddStaff();
    dialog.getByText('At least 12 characters, hard to guess. Give it to the new member; they can change it in Settings → Security.');
    await user.click(dialog.getByRole('button', { name: 'Add Staff Member' }));
    await dialog.findByText('Email is required');
  });

  it.each([
    ['short', 'password: must be at least 12 characters', 'Temporary password must be at least 12 characters'],
    [
      'password1234',
      'password: is too easy to guess: This is similar to a commonly used password. Add more words that are less common.',
      'Temporary password is too easy to guess: This is similar to a commonly used password. Add more words that are less common.',
    ],
  ])('shows the server refusing the password %s under the field', async (password, message, shown) => {
    const refused = refuse('post', '/api/staff', 400, { message, field: 'password' });
    const { user, dialog } = await openAddStaff([refused]);
    await fillMember(user, dialog, password);
    await dialog.findByText(shown);
    screen.getByText('Failed to add staff member');
    expect(refused.sent[0]!.body).toEqual({ email: 'marta.manager@demo.test', firstName: 'Marta', lastName: 'Manager', role: 'manager', password });
  });

  it('adds the member with the role chosen and says so', async () => {
    const added = answer('post', '/api/staff', StaffMember, marta);
    const { user, dialog } = await openAddStaff([added]);
    await fillMember(user, dialog, 'welcome aboard 1');
    await screen.findByText('Staff member added successfully');
    expect(added.sent[0]!.body).toMatchObject({ role: 'manager', password: 'welcome aboard 1' });
  });
});

describe('who sees the staff card', () => {
  it.each(['auditor', 'manager'] as const)('shows the %s no staff card and no Add Staff Member', async (role) => {
    renderConsole(<SettingsPage />, { role, path: '/settings', api: settingsScreenAnswers() });
    await screen.findByText('Security', { selector: '.ant-card-head-title *' });
    await screen.findByText('Business Profile', { selector: '.ant-card-head-title *' });
    expect(screen.queryByTestId('staff-card')).toBeNull();
    expect(screen.queryByRole('button', { name: /Add Staff Member/ })).toBeNull();
  });

  it('shows an owner the staff card, with themselves marked', async () => {
    renderConsole(<SettingsPage />, {
      role: 'owner',
      path: '/settings',
      api: [
        ...settingsScreenAnswers(),
        answerPage('/api/staff', StaffMember, [{ ...ownerRow, id: owner.id }]),
        answer('get', '/api/read-model/failures', ReadModelFailure.array(), []),
      ],
    });
    const card = within(await screen.findByTestId('staff-card'));
    await card.findByText('You');
    card.getByRole('button', { name: /Add Staff Member/ });
  });
});
