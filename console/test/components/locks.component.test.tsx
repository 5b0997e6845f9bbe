import { Lock } from '@storage/contracts/locks';
import { Unit } from '@storage/contracts/units';
import { answerPage, neverAnswer } from '@storage/testing/component-api';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import LocksPage from '../../src/app/routes/locks.tsx';
import { hoursAgo, lock, onUnit } from './lock-fixtures.ts';
import { FACILITIES, renderConsole } from './render.tsx';

// The Smart Locks screen's views and exception filters: the cards by default and the table behind
// the view switch (kept in the URL), the table's columns and its rows opening the lock's details,
// the Exceptions asked of the server with the other filters, and what an auditor is offered.

const [riverside, harbor] = [FACILITIES[0]!, FACILITIES[1]!];

const healthy = lock('NK-1001', onUnit(harbor.id, 'HP-A101'));
const lowBattery = lock('NK-1002', { ...onUnit(riverside.id, 'RS-B204'), status: 'low_battery', batteryLevel: 12, firmwareVersion: null });
const offline = lock('NK-1003', { lastSeen: hoursAgo(30) });
const notApplied = lock('NK-1004', {
  ...onUnit(harbor.id, 'HP-C310'),
  desiredState: 'normal',
  reportedState: 'overlocked',
  differsSince: hoursAgo(3),
});
const fleet = [healthy, lowBattery, offline, notApplied];

const search = () => new URLSearchParams(window.location.search);
/** The lock details' unit picker asks for its first choices (for those who may change the lock). */
const unitChoices = () => answerPage('/api/units', Unit, []);
/** Whether a view (a radio) or an exception (antd's checkable tag: a checkbox role on a span) is chosen. */
const checked = (element: HTMLElement) => (element instanceof HTMLInputElement ? element.checked : element.getAttribute('aria-checked') === 'true');

describe('Smart Locks views', () => {
  it('shows the cards by default, and the table once Table is chosen, remembered in the URL and asked 100 rows a page', async () => {
    const locks = answerPage('/api/locks', Lock, fleet);
    const { user } = renderConsole(<LocksPage />, { path: '/locks', api: [locks] });
    expect(await screen.findAllByTestId('lock-card')).toHaveLength(4);
    expect(locks.sent[0]!.search.get('pageSize')).toBe('48');
    expect(checked(screen.getByRole('radio', { name: 'Cards' }))).toBe(true);

    await user.click(screen.getByRole('radio', { name: 'Table' }));
    expect(await screen.findAllByTestId('lock-row')).toHaveLength(4);
    expect(screen.queryByTestId('lock-card')).toBeNull();
    expect(search().get('view')).toBe('table');
    await waitFor(() => expect(locks.sent.at(-1)!.search.get('pageSize')).toBe('100'));

    // Back returns to the cards.
    act(() => window.history.back());
    expect(await screen.findAllByTestId('lock-card')).toHaveLength(4);
    expect(search().get('view')).toBeNull();
  });

  it('opens on the table when the URL says so (a reload, a shared link)', async () => {
    renderConsole(<LocksPage />, { path: '/locks?view=table', api: [answerPage('/api/locks', Lock, fleet)] });
    expect(await screen.findAllByTestId('lock-row')).toHaveLength(4);
    expect(checked(screen.getByRole('radio', { name: 'Table' }))).toBe(true);
    expect(screen.getByRole('table', { name: 'Smart locks' })).toBeTruthy();
  });

  it('shows 10 placeholder rows while the table loads', async () => {
    renderConsole(<LocksPage />, { path: '/locks?view=table', api: [neverAnswer('get', '/api/locks')] });
    expect(await screen.findAllByTestId('lock-placeholder-row')).toHaveLength(10);
  });

  it('says No smart locks found in the table when nothing matches', async () => {
    renderConsole(<LocksPage />, { path: '/locks?view=table', api: [answerPage('/api/locks', Lock, [])] });
    await screen.findByText('No smart locks found');
  });
});

describe('Smart Locks table', () => {
  const rowOf = async (lockId: string) => within((await screen.findAllByTestId('lock-row')).find((row) => row.textContent?.includes(lockId))!);

  it('shows lock ID, unit with its facility under All Facilities, status, battery, firmware, last seen and access', async () => {
    renderConsole(<LocksPage />, { path: '/locks?view=table', api: [answerPage('/api/locks', Lock, fleet)] });
    const headers = (await screen.findAllByRole('columnheader')).map((th) => th.textContent);
    expect(headers).toEqual(['Lock ID', 'Unit', 'Status', 'Battery', 'Firmware', 'Last seen', 'Access']);

    const low = await rowOf('NK-1002');
    low.getByText(`RS-B204 · ${riverside.name}`);
    low.getByText('Low battery');
    low.getByText('12%');
    low.getByText('—');
    low.getByText('2h ago');
    low.getByText('Applied');

    const away = await rowOf('NK-1003');
    away.getByText('Unknown Unit');
    away.getByText('1d ago');
    away.getByText('Offline');

    const differs = await rowOf('NK-1004');
    differs.getByText('Normal');
    expect(differs.getByTestId('lock-not-applied').textContent).toMatch(/^Not yet applied \(lock reports Overlocked\) for 3 h \d+ min$/);
    expect(differs.queryByText('Offline')).toBeNull();
  });

  it('names only the unit when one facility is in view', async () => {
    renderConsole(<LocksPage />, { path: `/locks?view=table&facility=${harbor.id}`, api: [answerPage('/api/locks', Lock, [healthy])] });
    const row = await rowOf('NK-1001');
    row.getByText('HP-A101');
    expect(row.queryByText(new RegExp(harbor.name))).toBeNull();
  });

  it('sorts by a header on the server, keeping the table', async () => {
    const locks = answerPage('/api/locks', Lock, fleet);
    const { user } = renderConsole(<LocksPage />, { path: '/locks?view=table', api: [locks] });
    await screen.findAllByTestId('lock-row');
    await user.click(screen.getByRole('button', { name: /Battery/ }));
    await waitFor(() => expect(locks.sent.at(-1)!.search.get('sort')).toBe('batteryLevel'));
    expect(search().get('view')).toBe('table');
  });

  it('opens the lock details from a row, by a click or by Enter', async () => {
    const { user } = renderConsole(<LocksPage />, { path: '/locks?view=table', api: [answerPage('/api/locks', Lock, fleet), unitChoices()] });
    const rows = await screen.findAllByTestId('lock-row');
    await user.click(within(rows[1]!).getByText('NK-1002'));
    const drawer = within(await screen.findByRole('dialog'));
    drawer.getByText('Lock NK-1002');
    await user.click(drawer.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    rows[3]!.focus();
    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog')).getByText('Lock NK-1004');
  });
});

describe('Smart Locks exceptions', () => {
  it('asks the server for the checked exceptions with the search, status and sort, in either view, and keeps them in the URL', async () => {
    const locks = answerPage('/api/locks', Lock, [lowBattery]);
    const { user } = renderConsole(<LocksPage />, { path: '/locks?search=NK&status=low_battery&sort=batteryLevel', api: [locks] });
    const exceptions = within(await screen.findByRole('group', { name: 'Exceptions' }));
    await screen.findAllByTestId('lock-card');
    expect(locks.sent.at(-1)!.search.get('exceptions')).toBeNull();

    await user.click(exceptions.getByRole('checkbox', { name: 'Low battery' }));
    await user.click(exceptions.getByRole('checkbox', { name: 'Not yet applied' }));
    await waitFor(() => expect(locks.sent.at(-1)!.search.get('exceptions')).toBe('lowBattery,notApplied'));
    const asked = locks.sent.at(-1)!.search;
    expect([asked.get('search'), asked.get('status'), asked.get('sort')]).toEqual(['NK', 'low_battery', 'batteryLevel']);
    expect(search().get('exceptions')).toBe('lowBattery,notApplied');
    expect(checked(exceptions.getByRole('checkbox', { name: 'Low battery' }))).toBe(true);
    expect(checked(exceptions.getByRole('checkbox', { name: 'Offline' }))).toBe(false);

    await user.click(screen.getByRole('radio', { name: 'Table' }));
    await screen.findAllByTestId('lock-row');
    await waitFor(() => expect(locks.sent.at(-1)!.search.get('pageSize')).toBe('100'));
    expect(locks.sent.at(-1)!.search.get('exceptions')).toBe('lowBattery,notApplied');

    await user.click(exceptions.getByRole('checkbox', { name: 'Low battery' }));
    await waitFor(() => expect(locks.sent.at(-1)!.search.get('exceptions')).toBe('notApplied'));
    await user.click(exceptions.getByRole('checkbox', { name: 'Not yet applied' }));
    await waitFor(() => expect(locks.sent.at(-1)!.search.get('exceptions')).toBeNull());
    expect(search().get('exceptions')).toBeNull();
  });

  it('reads the exceptions from the URL', async () => {
    const locks = answerPage('/api/locks', Lock, [offline]);
    renderConsole(<LocksPage />, { path: '/locks?exceptions=offline', api: [locks] });
    const exceptions = within(await screen.findByRole('group', { name: 'Exceptions' }));
    await waitFor(() => expect(checked(exceptions.getByRole('checkbox', { name: 'Offline' }))).toBe(true));
    await screen.findAllByTestId('lock-card');
    expect(locks.sent.at(-1)!.search.get('exceptions')).toBe('offline');
  });

  it('shows every lock for an exceptions value it does not know', async () => {
    const locks = answerPage('/api/locks', Lock, fleet);
    renderConsole(<LocksPage />, { path: '/locks?exceptions=broken', api: [locks] });
    await screen.findAllByTestId('lock-card');
    expect(locks.sent.at(-1)!.search.get('exceptions')).toBeNull();
  });
});

describe('Smart Locks for an auditor', () => {
  it('offers the views and the exceptions, but neither Add Lock nor a change of a lock', async () => {
    const { user } = renderConsole(<LocksPage />, { role: 'auditor', path: '/locks', api: [answerPage('/api/locks', Lock, fleet)] });
    const card = within((await screen.findAllByTestId('lock-card'))[0]!);
    screen.getByRole('group', { name: 'Exceptions' });
    expect(screen.queryByRole('button', { name: /Add Lock/ })).toBeNull();

    await user.click(card.getByRole('button', { name: 'Settings of lock NK-1001' }));
    let drawer = within(await screen.findByRole('dialog'));
    drawer.getByText('Lock NK-1001');
    expect(drawer.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    expect(drawer.queryByText('Change')).toBeNull();
    await user.click(drawer.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('radio', { name: 'Table' }));
    const rows = await screen.findAllByTestId('lock-row');
    await user.click(within(rows[0]!).getByText('NK-1001'));
    drawer = within(await screen.findByRole('dialog'));
    drawer.getByText('Lock NK-1001');
    expect(drawer.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add Lock/ })).toBeNull();
  });

  it('offers a manager Add Lock and the change of a lock', async () => {
    const { user } = renderConsole(<LocksPage />, { role: 'manager', path: '/locks?view=table', api: [answerPage('/api/locks', Lock, fleet), unitChoices()] });
    const rows = await screen.findAllByTestId('lock-row');
    screen.getByRole('button', { name: /Add Lock/ });
    await user.click(within(rows[0]!).getByText('NK-1001'));
    within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save Changes' });
  });
});
