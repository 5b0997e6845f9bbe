import { CreateLockRequest, Lock } from '@storage/contracts/locks';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { Unit } from '@storage/contracts/units';
import { answer, answerPage, declareAnswers, neverAnswer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import LocksPage from '../../src/app/routes/locks.tsx';
import { lock, onUnit } from './lock-fixtures.ts';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// The Smart Locks cards and the lock's forms, field by field: what a card shows, the placeholders
// while the locks load, the facility in the subtitle and the query, the Add Lock form's defaults
// and what it sends (and the server's refusal of a taken id), and the lock details' change of
// status and unit. locks.e2e.test.ts walks a lock added and changed against the real server.

const [riverside, harbor] = [FACILITIES[0]!, FACILITIES[1]!];

const seated = lock('NK-2001', { ...onUnit(harbor.id, 'HP-A101'), batteryLevel: 64, firmwareVersion: '3.1.0' });
const neverSeen = lock('NK-2002', { lastSeen: null, reportedAt: null, reportedState: null, firmwareVersion: null });
const rsC101: Unit = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  unitNumber: 'RS-C101',
  building: 'C',
  facilityId: riverside.id,
  size: '10x10',
  monthlyRate: '120.00',
  status: 'available',
  description: null,
  features: NO_UNIT_FEATURES,
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
};

const cardOf = async (lockId: string) => within((await screen.findAllByTestId('lock-card')).find((card) => card.textContent?.includes(lockId))!);
const value = (field: HTMLElement) => (field as HTMLInputElement).value;

describe('Smart Locks cards', () => {
  it('shows each lock’s ID, status, unit (Unknown Unit on none), battery, last seen and firmware', async () => {
    renderConsole(<LocksPage />, { path: '/locks', api: [answerPage('/api/locks', Lock, [seated, neverSeen])] });
    await screen.findByText('Manage your smart lock fleet', { exact: true });
    const first = await cardOf('NK-2001');
    first.getByText('Active');
    first.getByText('HP-A101');
    first.getByText('64%');
    first.getByText('Last seen: 2h ago');
    first.getByText('Firmware: 3.1.0');
    const second = await cardOf('NK-2002');
    second.getByText('Unknown Unit');
    second.getByText('Last seen: Never');
    second.getByText('Firmware: —');
  });

  it('shows 6 placeholder cards while the locks load', async () => {
    renderConsole(<LocksPage />, { path: '/locks', api: [neverAnswer('get', '/api/locks')] });
    expect(await screen.findAllByTestId('lock-placeholder')).toHaveLength(6);
    expect(screen.queryByTestId('lock-card')).toBeNull();
  });

  it('asks the server for the search typed, and says No smart locks found when it finds none', async () => {
    const { user } = renderConsole(<LocksPage />, { path: '/locks', api: [answerPage('/api/locks', Lock, [seated])] });
    await screen.findAllByTestId('lock-card');
    const none = answerPage('/api/locks', Lock, []);
    declareAnswers(none);
    await fill(user, screen.getByPlaceholderText('Search locks by ID or unit...'), 'no-lock-is-called-this');
    await screen.findByText('No smart locks found');
    expect(none.sent.at(-1)!.search.get('search')).toBe('no-lock-is-called-this');
  });

  it('asks for the locks of the facility in view, and names it in the subtitle', async () => {
    const locks = answerPage('/api/locks', Lock, [seated]);
    renderConsole(<LocksPage />, { path: `/locks?facility=${harbor.id}`, api: [locks] });
    await screen.findByText(`Manage your smart lock fleet at ${harbor.name}`);
    await screen.findAllByTestId('lock-card');
    expect(locks.sent.at(-1)!.search.get('facilityId')).toBe(harbor.id);
  });
});

describe('Add Lock', () => {
  it('opens on battery 100, no unit and Active; an emptied battery becomes 0; it sends the lock with the unit found and says so', async () => {
    const units = answerPage('/api/units', Unit, [rsC101]);
    const { user } = renderConsole(<LocksPage />, { path: '/locks', api: [answerPage('/api/locks', Lock, [seated]), units] });
    await screen.findAllByTestId('lock-card');
    await user.click(screen.getByRole('button', { name: /Add Lock/ }));
    const dialog = within(await screen.findByRole('dialog'));
    const battery = dialog.getByLabelText('Battery Level (%)');
    expect(value(battery)).toBe('100');
    dialog.getByText('No unit assigned');
    dialog.getByText('Active');

    await user.clear(battery);
    await user.click(dialog.getByLabelText('Lock ID'));
    await waitFor(() => expect(value(battery)).toBe('0'));
    await fill(user, battery, '87');

    await fill(user, dialog.getByLabelText('Lock ID'), 'NK-3001');
    await user.type(dialog.getByLabelText('Unit'), 'RS-C10');
    await waitFor(() => expect(units.sent.at(-1)?.search.get('search')).toBe('RS-C10'));
    await user.click(await screen.findByTitle('RS-C101 · Building C · 10x10'));
    await fill(user, dialog.getByLabelText('Firmware Version'), '2.5.0');
    const created = answer('post', '/api/locks', Lock, lock('NK-3001', { unitId: rsC101.id, batteryLevel: 87, firmwareVersion: '2.5.0' }));
    declareAnswers(created);
    await user.click(dialog.getByRole('button', { name: 'Add Lock' }));
    await screen.findByText('Lock created successfully');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(CreateLockRequest.parse(created.sent[0]!.body)).toEqual({
      lockId: 'NK-3001',
      unitId: rsC101.id,
      status: 'active',
      batteryLevel: 87,
      firmwareVersion: '2.5.0',
    });
  });

  it('opens empty again, and shows the server’s refusal of a lock id that is taken', async () => {
    const { user } = renderConsole(<LocksPage />, { path: '/locks', api: [answerPage('/api/locks', Lock, [seated]), answerPage('/api/units', Unit, [])] });
    await screen.findAllByTestId('lock-card');
    await user.click(screen.getByRole('button', { name: /Add Lock/ }));
    let dialog = within(await screen.findByRole('dialog'));
    dialog.getByText('Add Lock', { selector: '.ant-modal-title' });
    await fill(user, dialog.getByLabelText('Lock ID'), 'NK-9');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: /Add Lock/ }));
    dialog = within(await screen.findByRole('dialog'));
    expect(value(dialog.getByLabelText('Lock ID'))).toBe('');
    declareAnswers(refuse('post', '/api/locks', 409, { message: 'A lock with the id nk-2001 already exists', field: 'lockId' }));
    await fill(user, dialog.getByLabelText('Lock ID'), 'nk-2001');
    await user.click(dialog.getByRole('button', { name: 'Add Lock' }));
    await screen.findByText('Failed to create lock');
    await screen.findByText('A lock with the id nk-2001 already exists');
    screen.getByRole('dialog');
  });
});

describe('Lock details', () => {
  it('shows the battery and when the lock was last seen, and sends a new status and no unit, the card then showing them', async () => {
    const { user } = renderConsole(<LocksPage />, {
      path: '/locks',
      api: [answerPage('/api/locks', Lock, [seated, neverSeen]), answerPage('/api/units', Unit, [])],
    });
    await user.click((await cardOf('NK-2001')).getByRole('button', { name: 'Settings of lock NK-2001' }));
    const details = within(await screen.findByRole('dialog'));
    details.getByText('Lock NK-2001');
    expect(details.getByText('Battery').closest('tr')!.textContent).toBe('Battery64%');
    expect(details.getByText('Last seen').closest('tr')!.textContent).toMatch(/^Last seen2h ago \(/);

    await user.click(details.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByTitle('Maintenance'));
    await user.click(details.getByRole('combobox', { name: 'Unit' }));
    await user.click((await screen.findAllByTitle('No unit assigned')).at(-1)!);
    const updated = answer('patch', `/api/locks/${seated.id}`, Lock, { ...seated, status: 'maintenance', unitId: null, unit: null });
    declareAnswers(updated);
    await user.click(details.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Lock updated successfully');
    expect(updated.sent[0]!.body).toEqual({ status: 'maintenance', unitId: null });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = await cardOf('NK-2001');
    card.getByText('Maintenance');
    card.getByText('Unknown Unit');
  });
});
