import { Customer } from '@storage/contracts/customers';
import { CreateFacilityRequest, Facility } from '@storage/contracts/facilities';
import { MessageTemplate } from '@storage/contracts/messages';
import { BusinessProfile, Settings } from '@storage/contracts/settings';
import { answer, answerEmpty, answerPage, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SettingsPage from '../../src/app/routes/settings.tsx';
import { FacilitiesCard } from '../../src/features/facilities/components/facilities-card.tsx';
import { BusinessProfileCard } from '../../src/features/settings/components/business-profile-card.tsx';
import { SecurityCard } from '../../src/features/settings/components/security-card.tsx';
import { FACILITIES, fill, type RenderOptions, renderConsole } from './render.tsx';
import { defaultSettingsAnswer, reservationConfirmedTemplate, settingsScreenAnswers } from './settings-fixtures.ts';

// Settings: the business profile's checks and save, the password change's checks and the server's
// reason, adding a facility, and the read-only view a clerk gets. A card whose behaviour is the same
// for every role that sees it is rendered alone; what depends on the role, on the whole screen.

/** The card titled `title`. */
const card = async (title: string) => within((await screen.findByText(title, { selector: '.ant-card-head-title *' })).closest('.ant-card') as HTMLElement);

describe('Settings for an owner', () => {
  it('refuses an email that is not one, then saves the profile and says so', async () => {
    const saved = answer('put', '/api/settings/business-profile', Settings, {
      ...defaultSettingsAnswer,
      businessProfile: { name: 'Demo Storage Co.', phone: '(503) 555-0199', email: 'office@demo-storage.test' },
    });
    const { user } = renderConsole(<BusinessProfileCard profile={defaultSettingsAnswer.businessProfile} canChange />, { path: '/settings', api: [saved] });
    const profile = await card('Business Profile');
    await fill(user, profile.getByLabelText('Business Name'), 'Demo Storage Co.');
    await fill(user, profile.getByLabelText('Phone'), '(503) 555-0199');
    await fill(user, profile.getByLabelText('Email'), 'not-an-email');
    await user.click(profile.getByRole('button', { name: 'Save Profile' }));
    await profile.findByText('Email must be a valid email address');
    expect(saved.sent).toHaveLength(0);

    await fill(user, profile.getByLabelText('Email'), 'office@demo-storage.test');
    await user.click(profile.getByRole('button', { name: 'Save Profile' }));
    await screen.findByText('Business profile saved successfully');
    expect(BusinessProfile.parse(saved.sent[0]!.body)).toEqual({ name: 'Demo Storage Co.', phone: '(503) 555-0199', email: 'office@demo-storage.test' });
  });
});

describe('Security: changing your own password', () => {
  async function security(api: RenderOptions['api'] = []) {
    const rendered = renderConsole(<SecurityCard />, { role: 'clerk', path: '/settings', api });
    return { ...rendered, security: await card('Security') };
  }

  it('says what a new password needs, and refuses a confirmation that differs', async () => {
    const { user, security: card } = await security();
    card.getByText('At least 12 characters, hard to guess', { exact: false });
    await fill(user, card.getByLabelText('Current Password'), 'the-old-secret-1');
    await fill(user, card.getByLabelText('New Password'), 'clerk-new-secret');
    await fill(user, card.getByLabelText('Confirm Password'), 'clerk-new-secreT');
    await user.click(card.getByRole('button', { name: 'Update Password' }));
    await card.findByText('Confirm password must match the new password');
  });

  it("shows the server's reason a password is too easy to guess under the field", async () => {
    const easy = refuse('put', '/api/auth/password', 400, {
      message: 'newPassword: is too easy to guess: This is similar to a commonly used password. Add more words that are less common.',
      field: 'newPassword',
    });
    const { user, security: card } = await security([easy]);
    await fill(user, card.getByLabelText('Current Password'), 'the-old-secret-1');
    await fill(user, card.getByLabelText('New Password'), 'password1234');
    await fill(user, card.getByLabelText('Confirm Password'), 'password1234');
    await user.click(card.getByRole('button', { name: 'Update Password' }));
    await card.findByText('New password is too easy to guess: This is similar to a commonly used password. Add more words that are less common.');
    expect(easy.sent[0]!.body).toEqual({ currentPassword: 'the-old-secret-1', newPassword: 'password1234', confirmPassword: 'password1234' });
  });

  it('says the password changed and empties the fields', async () => {
    const changed = answerEmpty('put', '/api/auth/password');
    const { user, security: card } = await security([changed]);
    await fill(user, card.getByLabelText('Current Password'), 'the-old-secret-1');
    await fill(user, card.getByLabelText('New Password'), 'clerk-new-secret');
    await fill(user, card.getByLabelText('Confirm Password'), 'clerk-new-secret');
    await user.click(card.getByRole('button', { name: 'Update Password' }));
    await screen.findByText('Password changed successfully');
    expect((card.getByLabelText('Current Password') as HTMLInputElement).value).toBe('');
  });
});

describe('Add Facility', () => {
  it('asks for the name, sends the facility and says so', async () => {
    const created = answer('post', '/api/facilities', Facility, {
      id: '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c',
      name: 'Lakeside Storage',
      address: '9 Lake Shore Dr, Madison, WI 53703',
      phone: '(608) 555-0100',
      managerName: 'Ada Brooks',
      totalUnits: 0,
      occupiedUnits: 0,
      timeZone: 'America/Chicago',
      accessHours: null,
    });
    const { user } = renderConsole(<FacilitiesCard canManage />, { path: '/settings', api: [created] });
    await user.click(await screen.findByRole('button', { name: /Add Facility/ }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Add Facility' }));
    await dialog.findByText('Name is required');
    expect(created.sent).toHaveLength(0);

    await fill(user, dialog.getByLabelText('Name', { exact: true }), 'Lakeside Storage');
    await fill(user, dialog.getByLabelText('Address'), '9 Lake Shore Dr, Madison, WI 53703');
    await fill(user, dialog.getByLabelText('Phone'), '(608) 555-0100');
    await fill(user, dialog.getByLabelText('Manager Name'), 'Ada Brooks');
    await user.click(dialog.getByRole('button', { name: 'Add Facility' }));
    await screen.findByText('Facility created successfully');
    expect(CreateFacilityRequest.parse(created.sent[0]!.body)).toMatchObject({
      name: 'Lakeside Storage',
      address: '9 Lake Shore Dr, Madison, WI 53703',
      phone: '(608) 555-0100',
      managerName: 'Ada Brooks',
    });
  });

  it("shows the server's refusal of a taken name in the Error toast", async () => {
    const taken = refuse('post', '/api/facilities', 409, { message: 'A facility named riverside self storage already exists', field: 'name' });
    const { user } = renderConsole(<FacilitiesCard canManage />, { path: '/settings', api: [taken] });
    await user.click(await screen.findByRole('button', { name: /Add Facility/ }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByLabelText('Name', { exact: true }), 'riverside self storage');
    await fill(user, dialog.getByLabelText('Address'), '1 Elsewhere Rd');
    await user.click(dialog.getByRole('button', { name: 'Add Facility' }));
    await screen.findByText('Failed to create facility');
    screen.getByText('A facility named riverside self storage already exists');
  });
});

describe('Access Hours of a facility', () => {
  it('shows each facility’s hours in words, and edits them: 24-hour access off, the closing time after the opening time', async () => {
    const harbor = FACILITIES[1];
    const updated = answer('patch', `/api/facilities/${harbor!.id}`, Facility, { ...harbor!, accessHours: { opensAt: '07:00', closesAt: '21:30' } });
    const { user } = renderConsole(<FacilitiesCard canManage />, { path: '/settings', api: [updated] });
    const hours = await screen.findAllByTestId('facility-access-hours');
    expect(hours.map((line) => line.textContent)).toEqual(['Access hours: 6:00 AM – 10:00 PM every day', 'Access hours: 24/7']);

    await user.click(screen.getByRole('button', { name: `Edit ${harbor!.name}` }));
    const dialog = within(await screen.findByRole('dialog'));
    const allHours = dialog.getByRole('switch', { name: '24-hour access' });
    expect(allHours.getAttribute('aria-checked')).toBe('true');
    expect(dialog.queryByLabelText('Opens At')).toBeNull();
    await user.click(allHours);
    await fill(user, dialog.getByLabelText('Opens At'), '07:00');
    await fill(user, dialog.getByLabelText('Closes At'), '06:00');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await dialog.findByText('Closes at must be after opens at');
    expect(updated.sent).toHaveLength(0);

    await fill(user, dialog.getByLabelText('Closes At'), '21:30');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Facility updated successfully');
    expect(updated.sent[0]!.body).toEqual({ accessHours: { opensAt: '07:00', closesAt: '21:30' } });
  });
});

describe('Settings for a clerk', () => {
  it('shows the business settings read-only: no save buttons, fields and switches disabled', async () => {
    renderConsole(<SettingsPage />, { role: 'clerk', path: '/settings', api: settingsScreenAnswers() });
    const billing = await card('Billing');
    expect((await billing.findByLabelText('Grace Days Before the Late Fee')).hasAttribute('disabled')).toBe(true);
    await card('Payment Settings');
    await (await card('Protection Plans')).findByText('No protection plans');
    await (await card('Promotions')).findByText('No promotions');
    await (await card('Lease Agreement')).findByText(/and no additional terms/);
    // Business Profile, Notifications, Payment Settings, Billing, Protection Plans, Promotions and Lease Agreement.
    expect(screen.getAllByText('Only owners and managers can change these settings.')).toHaveLength(7);
    for (const name of [
      'Save Profile',
      'Save Preferences',
      'Save Payment Settings',
      'Save Billing Settings',
      'Save Protection Plans',
      'Save Promotions',
      'Save Lease Agreement',
      /Add Plan/,
      /Add Term/,
      /Add Promotion/,
      /Add Facility/,
    ]) {
      expect(screen.queryByRole('button', { name }), String(name)).toBeNull();
    }
    expect(screen.getByRole('switch', { name: 'Overdue Payment Alerts' }).hasAttribute('disabled')).toBe(true);
    // The password is the clerk's own: that form stays open to them.
    expect(screen.getByRole('button', { name: 'Update Password' }).hasAttribute('disabled')).toBe(false);
  });
});

// The first answer to a path is the one given: this one lists a message to preview.
describe('Settings for an auditor', () => {
  const template = reservationConfirmedTemplate;

  it('offers no action the auditor cannot take: no message preview, no gateway key button', async () => {
    const api = [answer('get', '/api/message-templates', MessageTemplate.array(), [template]), ...settingsScreenAnswers()];
    renderConsole(<SettingsPage />, { role: 'auditor', path: '/settings', api });
    const messages = await card('Messages to renters');
    await messages.findByText('Only the owner can change the wording of messages.');
    expect(messages.queryByRole('button', { name: 'Preview' })).toBeNull();
    expect(messages.queryByText('Preview for')).toBeNull();
    const keys = within(await screen.findByTestId('gateway-keys-card'));
    await keys.findByText('Only an owner can create or rotate a gateway key.');
    expect(keys.queryByRole('button', { name: /Create Key|Rotate Key/ })).toBeNull();
    // Their own password is theirs to change.
    expect(screen.getByRole('button', { name: 'Update Password' }).hasAttribute('disabled')).toBe(false);
  });

  it('still offers a manager the preview', async () => {
    const api = [answer('get', '/api/message-templates', MessageTemplate.array(), [template]), ...settingsScreenAnswers()];
    renderConsole(<SettingsPage />, { role: 'manager', path: '/settings', api: [...api, answerPage('/api/customers', Customer, [])] });
    const messages = await card('Messages to renters');
    await messages.findByRole('button', { name: 'Preview' });
  });
});
