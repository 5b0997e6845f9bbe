import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { Unit, UnitBuilding } from '@storage/contracts/units';
import { answer, answerPage, neverAnswer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import UnitsPage from '../../src/app/routes/units.tsx';
import { FACILITIES, fill, type RenderOptions, renderConsole } from './render.tsx';

// The Units screen: building groups, its loading, empty and failed states, the Add Unit form's
// defaults and facility question, and who may change units.

const harbor = FACILITIES[1]!;
const unit = (unitNumber: string, building: string, extra: Partial<Unit> = {}): Unit => ({
  id: crypto.randomUUID(),
  unitNumber,
  building,
  facilityId: harbor.id,
  size: '10x10',
  monthlyRate: '135.50',
  status: 'available',
  description: 'Corner unit by the lift',
  features: NO_UNIT_FEATURES,
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  ...extra,
});
const a101 = unit('A101', 'A');
const a102 = unit('A102', 'A', { status: 'maintenance', description: null });
const b201 = unit('B201', 'B', { status: 'occupied' });
const buildings = answer('get', '/api/units/buildings', UnitBuilding.array(), [
  { facilityId: harbor.id, building: 'A', unitCount: 2 },
  { facilityId: harbor.id, building: 'B', unitCount: 1 },
]);

describe('Units screen', () => {
  it('groups the units under building headings with their counts, rates and statuses', async () => {
    renderConsole(<UnitsPage />, { path: `/units?facility=${harbor.id}`, api: [answerPage('/api/units', Unit, [a101, a102, b201]), buildings] });
    const groupA = within(await screen.findByRole('region', { name: 'Building A' }));
    expect(groupA.getAllByTestId('unit-card')).toHaveLength(2);
    expect((await groupA.findByTestId('building-unit-count')).textContent).toBe('2 units');
    const card = groupA.getAllByTestId('unit-card')[0]!;
    expect(card.textContent).toContain('$135.50/month');
    expect(card.textContent).toContain('Corner unit by the lift');
    expect(card.textContent).toContain('Available');
    expect(groupA.getAllByTestId('unit-card')[1]!.textContent).toContain('Maintenance');
    const groupB = within(screen.getByRole('region', { name: 'Building B' }));
    expect((await groupB.findByTestId('building-unit-count')).textContent).toBe('1 unit');
    expect(screen.getByTestId('list-count').textContent).toBe('3 units');
  });

  it('with every facility in view, heads each building with its facility: building A of two sites is two groups', async () => {
    const riverside = FACILITIES[0]!;
    const riversideA = unit('RA101', 'A', { facilityId: riverside.id });
    renderConsole(<UnitsPage />, {
      path: '/units',
      api: [
        answerPage('/api/units', Unit, [a101, a102, riversideA]),
        answer('get', '/api/units/buildings', UnitBuilding.array(), [
          { facilityId: harbor.id, building: 'A', unitCount: 2 },
          { facilityId: riverside.id, building: 'A', unitCount: 1 },
        ]),
      ],
    });
    const harborA = within(await screen.findByRole('region', { name: `${harbor.name} · Building A` }));
    expect(harborA.getAllByTestId('unit-card')).toHaveLength(2);
    expect((await harborA.findByTestId('building-unit-count')).textContent).toBe('2 units');
    const riversideGroup = within(screen.getByRole('region', { name: `${riverside.name} · Building A` }));
    expect(riversideGroup.getAllByTestId('unit-card')).toHaveLength(1);
    expect((await riversideGroup.findByTestId('building-unit-count')).textContent).toBe('1 unit');
  });

  it('says No units found when nothing matches', async () => {
    renderConsole(<UnitsPage />, { path: '/units?search=no-unit-is-called-this', api: [answerPage('/api/units', Unit, []), buildings] });
    await screen.findByText('No units found');
  });

  it('shows 3 building groups of 8 placeholder cards while the units load', async () => {
    renderConsole(<UnitsPage />, { path: '/units', api: [neverAnswer('get', '/api/units'), neverAnswer('get', '/api/units/buildings')] });
    await screen.findAllByTestId('unit-placeholder');
    expect(document.querySelectorAll('section[aria-busy="true"]')).toHaveLength(3);
    expect(screen.getAllByTestId('unit-placeholder')).toHaveLength(24);
  });

  it("says the units could not load, in the server's words", async () => {
    renderConsole(<UnitsPage />, { path: '/units', api: [refuse('get', '/api/units', 500, { message: 'Internal Server Error' }), buildings] });
    await screen.findByText('Could not load units');
    screen.getByText('Internal Server Error');
  });

  it('offers an auditor neither Add Unit nor a status change', async () => {
    renderConsole(<UnitsPage />, { role: 'auditor', path: '/units', api: [answerPage('/api/units', Unit, [a101]), buildings] });
    const card = within(await screen.findByTestId('unit-card'));
    await card.findByRole('button', { name: /History/ });
    expect(screen.queryByRole('button', { name: /Add Unit/ })).toBeNull();
    expect(card.queryByRole('button', { name: 'Change status of unit A101' })).toBeNull();
  });

  it('offers a clerk Add Unit and the status change', async () => {
    renderConsole(<UnitsPage />, { role: 'clerk', path: '/units', api: [answerPage('/api/units', Unit, [a101]), buildings] });
    const card = within(await screen.findByTestId('unit-card'));
    await card.findByRole('button', { name: 'Change status of unit A101' });
    screen.getByRole('button', { name: /Add Unit/ });
  });
});

describe('Add Unit form', () => {
  async function openForm(api: RenderOptions['api'] = []) {
    const rendered = renderConsole(<UnitsPage />, { path: '/units', api: [answerPage('/api/units', Unit, [a101]), buildings, ...api] });
    await rendered.user.click(await screen.findByRole('button', { name: /Add Unit/ }));
    // Named by its title in a browser; in a test antd gives every generated id the same value, so the name is not computed.
    const dialog = within(await screen.findByRole('dialog'));
    dialog.getByText('Add Unit', { selector: '.ant-modal-title' });
    return { ...rendered, dialog };
  }

  it('starts at 10x10, Available and an empty monthly rate', async () => {
    const { dialog } = await openForm();
    dialog.getByText('10x10 (Standard)');
    dialog.getByText('Available');
    const rate = dialog.getByLabelText('Monthly Rate') as HTMLInputElement;
    expect(rate.placeholder).toBe('120.00');
    expect(rate.value).toBe('');
  });

  it('asks for the unit number, building and monthly rate', async () => {
    const { user, dialog } = await openForm();
    await user.click(dialog.getByRole('button', { name: 'Add Unit' }));
    await dialog.findByText('Unit number is required');
    dialog.getByText('Building is required');
    dialog.getByText('Monthly rate must be an amount with at most two decimals, e.g. 120.00');
  });

  it('sends what the unit offers: climate control, drive-up access, its floor and its lock', async () => {
    const created = answer('post', '/api/units', Unit, { ...a101, unitNumber: 'F-1' });
    const { user, dialog } = await openForm([created]);
    await user.click(dialog.getByLabelText('Facility'));
    await user.click(await screen.findByTitle(harbor.name));
    await fill(user, dialog.getByLabelText('Unit Number'), 'F-1');
    await fill(user, dialog.getByLabelText('Building'), 'F');
    await fill(user, dialog.getByLabelText('Monthly Rate'), '99.00');
    await user.click(dialog.getByRole('checkbox', { name: 'Climate Controlled' }));
    await user.click(dialog.getByRole('checkbox', { name: 'Drive-Up Access' }));
    await fill(user, dialog.getByLabelText('Floor'), '2');
    await user.click(dialog.getByLabelText('Lock Type'));
    await user.click(await screen.findByTitle('Smart Lock'));
    await user.click(dialog.getByRole('button', { name: 'Add Unit' }));
    await screen.findByText('Unit created successfully');
    expect((created.sent[0]!.body as { features: unknown }).features).toEqual({ climateControlled: true, driveUp: true, floor: 2, lockType: 'smart' });
  });

  it('asks which facility with All Facilities in scope, sends the one chosen, and opens empty again', async () => {
    const created = answer('post', '/api/units', Unit, { ...a101, unitNumber: 'E2E-Z101', building: 'Z' });
    const { user, dialog } = await openForm([created]);
    await fill(user, dialog.getByLabelText('Unit Number'), 'E2E-Z101');
    await fill(user, dialog.getByLabelText('Building'), 'Z');
    await fill(user, dialog.getByLabelText('Monthly Rate'), '135.5');
    await fill(user, dialog.getByLabelText('Description'), 'Corner unit by the lift');
    await user.click(dialog.getByRole('button', { name: 'Add Unit' }));
    await dialog.findByText('Choose the facility');
    expect(created.sent).toHaveLength(0);

    await user.click(dialog.getByLabelText('Facility'));
    await user.click(await screen.findByTitle(harbor.name));
    await user.click(dialog.getByRole('button', { name: 'Add Unit' }));
    await screen.findByText('Unit created successfully');
    expect(created.sent).toHaveLength(1);
    expect(created.sent[0]!.body).toEqual({
      unitNumber: 'E2E-Z101',
      building: 'Z',
      size: '10x10',
      monthlyRate: '135.5',
      status: 'available',
      description: 'Corner unit by the lift',
      facilityId: harbor.id,
      features: { climateControlled: false, driveUp: false, floor: null, lockType: null },
    });

    // Each opening starts a clean form.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: /Add Unit/ }));
    const again = within(await screen.findByRole('dialog'));
    expect((again.getByLabelText('Unit Number') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal of a taken unit number in the Error toast", async () => {
    const taken = refuse('post', '/api/units', 409, { message: 'A unit numbered e2e-z101 already exists', field: 'unitNumber' });
    const { user, dialog } = await openForm([taken]);
    await fill(user, dialog.getByLabelText('Unit Number'), 'e2e-z101');
    await fill(user, dialog.getByLabelText('Building'), 'Z');
    await fill(user, dialog.getByLabelText('Monthly Rate'), '99');
    await user.click(dialog.getByLabelText('Facility'));
    await user.click(await screen.findByTitle(harbor.name));
    await user.click(dialog.getByRole('button', { name: 'Add Unit' }));
    await screen.findByText('Failed to create unit');
    screen.getByText('A unit numbered e2e-z101 already exists');
  });
});
