import { AvailableUnit } from '@storage/contracts/public';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { answer } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AvailableUnitsPage from '../../src/app/routes/available-units.tsx';
import { renderPortal } from './render.tsx';

// The public unit list: each card shows the features staff gave the unit, and a unit nobody
// described shows none (never the same badges on every card).

const unit = (unitNumber: string, features: AvailableUnit['features']): AvailableUnit => ({
  id: crypto.randomUUID(),
  unitNumber,
  building: 'A',
  facility: { id: '7c1a2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Westside Storage' },
  monthlyRate: '149.00',
  size: '10x15',
  description: null,
  features,
});

describe('available units', () => {
  it("shows each unit's own features, and none for a unit nobody described", async () => {
    const described = unit('W-101', { climateControlled: true, driveUp: true, floor: 1, lockType: 'smart' });
    const upstairs = unit('W-201', { climateControlled: false, driveUp: false, floor: 2, lockType: 'disc' });
    const plain = unit('W-301', NO_UNIT_FEATURES);
    renderPortal(<AvailableUnitsPage />, {
      path: '/units',
      api: [answer('get', '/api/public/units/available', AvailableUnit.array(), [described, upstairs, plain])],
    });
    const features = async (unitNumber: string) => {
      const card = await screen.findByRole('article', { name: `Unit ${unitNumber}` });
      const list = within(card).queryByRole('list', { name: 'Features' });
      return list
        ? within(list)
            .getAllByRole('listitem')
            .map((item) => item.textContent)
        : [];
    };
    expect(await features('W-101')).toEqual(['Climate Controlled', 'Drive-Up Access', 'Ground Floor', 'Smart Lock']);
    expect(await features('W-201')).toEqual(['Floor 2', 'Disc Lock']);
    expect(await features('W-301')).toEqual([]);
    expect(screen.queryByText('24/7 Security')).toBeNull();
  });
});
