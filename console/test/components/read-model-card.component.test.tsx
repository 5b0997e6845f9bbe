import { ReadModelFailure } from '@storage/contracts/read-model';
import { StaffMember } from '@storage/contracts/staff';
import { answer, answerPage } from '@storage/testing/component-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SettingsPage from '../../src/app/routes/settings.tsx';
import { renderConsole } from './render.tsx';
import { settingsScreenAnswers } from './settings-fixtures.ts';

// The Read model card (verify and rebuild the read tables) is the owner's alone on Settings; the
// API refuses the others too (projector/test/rebuild.int.test.ts).

const ownerAnswers = () => [answer('get', '/api/read-model/failures', ReadModelFailure.array(), []), answerPage('/api/staff', StaffMember, [])];

describe('the Read model card on Settings', () => {
  it('is shown to an owner, with Verify and Rebuild', async () => {
    renderConsole(<SettingsPage />, { role: 'owner', path: '/settings', api: [...settingsScreenAnswers(), ...ownerAnswers()] });
    await screen.findByTestId('read-model-card');
    for (const name of [/^Verify$/, /^Rebuild$/]) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  for (const [role, who] of [
    ['manager', 'a manager'],
    ['auditor', 'an auditor'],
  ] as const) {
    it(`is not shown to ${who}, nor are its Verify and Rebuild`, async () => {
      renderConsole(<SettingsPage />, { role, path: '/settings', api: settingsScreenAnswers() });
      // The card beside which the owner's would be, once it has loaded.
      await screen.findByTestId('gateway-keys-card');
      await screen.findAllByTestId('gateway-key-row');
      expect(screen.queryByTestId('read-model-card')).toBeNull();
      expect(screen.queryByText('Read model', { exact: true })).toBeNull();
      for (const name of [/^Verify$/, /^Rebuild$/]) expect(screen.queryByRole('button', { name })).toBeNull();
    });
  }
});
