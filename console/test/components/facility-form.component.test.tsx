import { CreateFacilityRequest, Facility } from '@storage/contracts/facilities';
import { answer } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FacilitiesCard } from '../../src/features/facilities/components/facilities-card.tsx';
import { defaultTimeZone } from '../../src/features/facilities/components/facility-form-dialog.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// A facility's time zone on the Facilities card and its form: each row shows its zone, a new
// facility starts on the browser's zone (when the form offers it), the zone chosen is sent, and an
// edit sends only the zone changed. That the server keeps it is billing-engine.e2e.test.ts.

const harbor = FACILITIES[1]!;

/** Chooses `zone` in the dialog's Time Zone select: typed into its search, then picked from what is left. */
async function chooseZone(user: UserEvent, dialog: ReturnType<typeof within>, typed: string, zone: string) {
  await user.type(dialog.getByLabelText('Time Zone'), typed);
  const option = (await screen.findAllByTitle(zone)).find((element) => element.closest('.ant-select-item-option'));
  await user.click(option!);
  await dialog.findByTitle(zone);
}

describe("a facility's time zone", () => {
  it('lists each facility with its zone, and adds one on the zone chosen (the browser’s by default)', async () => {
    const created = answer('post', '/api/facilities', Facility, {
      ...harbor,
      id: '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c',
      name: 'Lakeside Storage',
      timeZone: 'America/Denver',
    });
    const { user } = renderConsole(<FacilitiesCard canManage />, { path: '/settings', api: [created] });
    const zones = await screen.findAllByTestId('facility-time-zone');
    expect(zones.map((zone) => zone.textContent)).toEqual(['America/Los Angeles', 'America/Los Angeles']);

    await user.click(screen.getByRole('button', { name: /Add Facility/ }));
    const dialog = within(await screen.findByRole('dialog'));
    // The browser's zone, shown as the form shows zones (spaces for underscores).
    await dialog.findByTitle(defaultTimeZone().replaceAll('_', ' '));
    await fill(user, dialog.getByLabelText('Name', { exact: true }), 'Lakeside Storage');
    await fill(user, dialog.getByLabelText('Address'), '9 Lake Shore Dr, Chicago, IL 60611');
    await chooseZone(user, dialog, 'Denver', 'America/Denver');
    await user.click(dialog.getByRole('button', { name: 'Add Facility' }));
    await screen.findByText('Facility created successfully');
    expect(CreateFacilityRequest.parse(created.sent[0]!.body)).toMatchObject({ name: 'Lakeside Storage', timeZone: 'America/Denver' });
  });

  it("shows the facility's zone when editing it, and sends only the new zone", async () => {
    const updated = answer('patch', `/api/facilities/${harbor.id}`, Facility, { ...harbor, timeZone: 'Pacific/Honolulu' });
    const { user } = renderConsole(<FacilitiesCard canManage />, { path: '/settings', api: [updated] });
    await user.click(await screen.findByRole('button', { name: `Edit ${harbor.name}` }));
    const dialog = within(await screen.findByRole('dialog'));
    await dialog.findByTitle('America/Los Angeles');
    await chooseZone(user, dialog, 'Honolulu', 'Pacific/Honolulu');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Facility updated successfully');
    expect(updated.sent[0]!.body).toEqual({ timeZone: 'Pacific/Honolulu' });
  });
});
