// Renders a piece of the console as it runs inside the staff area: the app's own providers (antd's
// theme and toasts, the query client that answers a lost session), the facility scope, and the
// signed-in member, whose role decides what the screen offers. The API answers what the test
// declares (`@storage/testing/component-api`), each answer checked against its contract.

import { AuthUser } from '@storage/contracts/auth';
import type { StaffRole } from '@storage/contracts/enums';
import { Facility } from '@storage/contracts/facilities';
import { type Answer, answer, answerPage, declareAnswers } from '@storage/testing/component-api';
import { render } from '@testing-library/react';
import { PointerEventsCheckLevel, type UserEvent, userEvent } from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { AppProvider } from '../../src/app/provider.tsx';
import { FacilityScopeProvider } from '../../src/lib/facility-scope.tsx';

export const FACILITIES: Facility[] = [
  {
    id: '7c1a2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b',
    name: 'Riverside Self Storage',
    address: '12 River Road',
    phone: '(503) 555-0100',
    managerName: 'Rita River',
    totalUnits: 40,
    occupiedUnits: 31,
    timeZone: 'America/Los_Angeles',
    accessHours: { opensAt: '06:00', closesAt: '22:00' },
  },
  {
    id: '9d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a',
    name: 'Harbor Point Storage',
    address: '3 Harbor Way',
    phone: null,
    managerName: null,
    totalUnits: 20,
    occupiedUnits: 12,
    timeZone: 'America/Los_Angeles',
    accessHours: null,
  },
];

const staffIds: Record<StaffRole, string> = {
  owner: '6a0f0c8e-1b2c-4d3e-8f40-5a6b7c8d9e01',
  manager: '6a0f0c8e-1b2c-4d3e-8f40-5a6b7c8d9e02',
  clerk: '6a0f0c8e-1b2c-4d3e-8f40-5a6b7c8d9e03',
  auditor: '6a0f0c8e-1b2c-4d3e-8f40-5a6b7c8d9e04',
};

/** The member signed in with `role` (as GET /api/auth/user answers). */
export const signedIn = (role: StaffRole): AuthUser => ({
  id: staffIds[role],
  email: `${role}@demo.test`,
  firstName: role.charAt(0).toUpperCase() + role.slice(1),
  lastName: 'Member',
  profileImageUrl: null,
  role,
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
});

export type RenderOptions = {
  /** The signed-in member's role (owner unless said). */
  role?: StaffRole;
  /** The address the screen opens at: its path and query (the lists keep their state in it). */
  path?: string;
  /** What the API answers, besides the member and the facilities. */
  api?: Answer[];
};

export function renderConsole(ui: ReactNode, { role = 'owner', path = '/', api = [] }: RenderOptions = {}) {
  declareAnswers(answer('get', '/api/auth/user', AuthUser, signedIn(role)), answerPage('/api/facilities', Facility, FACILITIES));
  declareAnswers(...api);
  // The console reads the address from window.location (the facility scope, a list's state), so
  // the tests use jsdom's own history, put back at / after each test, rather than a memory location.
  window.history.replaceState(null, '', path);
  // No pause between keys, and no pointer-events check: it asks jsdom for the computed style of
  // every ancestor at each click, which was most of a dialog test's time.
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  const rendered = render(
    <AppProvider>
      {/* jsdom runs no CSS transitions, so an antd dialog that closes would wait forever for its end. */}
      <ConfigProvider theme={{ token: { motion: false } }}>
        <FacilityScopeProvider>{ui}</FacilityScopeProvider>
      </ConfigProvider>
    </AppProvider>,
  );
  return { user, ...rendered };
}

/** Types `text` into `field` in one go (pasted: a key at a time re-renders the antd form on each). */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}
