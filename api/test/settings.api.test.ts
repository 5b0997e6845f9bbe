import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { generateInvoice, markInvoiceOverdue } from '@storage/domain/invoices/commands';
import { installLock, recordLockHeartbeat } from '@storage/domain/locks/commands';
import type { Position } from '@storage/eventstore/port';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const allAlertsOn = { overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: true };

describe('settings API', () => {
  let platform: TestPlatform;
  let cookie: string;
  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });
  const settingsEvents = async () => (await platform.api.store.readStream('settings-business')).map((e) => e.type);

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every settings call when signed out', async () => {
    for (const [method, url] of [
      ['GET', '/api/settings'],
      ['PUT', '/api/settings/business-profile'],
      ['PUT', '/api/settings/notifications'],
      ['PUT', '/api/settings/payments'],
      ['PUT', '/api/auth/password'],
    ] as const) {
      const response = await platform.api.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('shows the defaults before anything is saved: every alert on, automatic charging on, a 25.00 late fee, the test provider', async () => {
    const response = await inject('GET', '/api/settings');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      businessProfile: { name: null, phone: null, email: null },
      notifications: allAlertsOn,
      payments: { publishableKey: null, automaticCharging: true, lateFeeAmount: '25.00' },
      updatedAt: null,
    });
  });

  it('saves the business profile as an event and reads it back', async () => {
    const saved = await inject('PUT', '/api/settings/business-profile', {
      name: ' Riverside Storage ',
      phone: '(503) 555-0100',
      email: 'Office@Riverside.test',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().businessProfile).toEqual({ name: 'Riverside Storage', phone: '(503) 555-0100', email: 'office@riverside.test' });
    expect(saved.json().updatedAt).not.toBeNull();
    expect((await inject('GET', '/api/settings')).json().businessProfile.name).toBe('Riverside Storage');

    const events = await platform.api.store.readStream('settings-business');
    expect(events.at(-1)!.type).toBe('business_profile_updated');
    expect(events.at(-1)!.data).toEqual({ scope: 'business', name: 'Riverside Storage', phone: '(503) 555-0100', email: 'office@riverside.test' });
    expect(events.at(-1)!.metadata.actor.type).toBe('staff');

    const cleared = await inject('PUT', '/api/settings/business-profile', { name: 'Riverside Storage', phone: '', email: null });
    expect(cleared.json().businessProfile).toEqual({ name: 'Riverside Storage', phone: null, email: null });
  });

  it('records nothing when a save changes nothing', async () => {
    await inject('PUT', '/api/settings/payments', { automaticCharging: true, lateFeeAmount: '25.00' });
    const before = await settingsEvents();
    const again = await inject('PUT', '/api/settings/payments', { automaticCharging: true, lateFeeAmount: 25 });
    expect(again.statusCode).toBe(200);
    expect(await settingsEvents()).toEqual(before);
  });

  it('saves payment settings with the late fee as an exact decimal string', async () => {
    const saved = await inject('PUT', '/api/settings/payments', { automaticCharging: false, lateFeeAmount: '30.5' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payments).toEqual({ publishableKey: null, automaticCharging: false, lateFeeAmount: '30.50' });
    const events = await platform.api.store.readStream('settings-business');
    expect(events.at(-1)!.data).toEqual({ scope: 'business', automaticCharging: false, lateFeeAmount: '30.50' });
    await inject('PUT', '/api/settings/payments', { automaticCharging: true, lateFeeAmount: '25.00' });
  });

  it.each([
    ['business-profile', 'a missing name', { phone: '1', email: null }, 'name'],
    ['business-profile', 'a blank name', { name: '   ' }, 'name'],
    ['business-profile', 'a bad email', { name: 'A', email: 'not-an-email' }, 'email'],
    ['business-profile', 'an oversize phone', { name: 'A', phone: '5'.repeat(41) }, 'phone'],
    ['business-profile', 'an unknown field', { name: 'A', logoUrl: 'x' }, 'logoUrl'],
    ['notifications', 'a missing toggle', { overduePaymentAlerts: true, lowBatteryAlerts: true }, 'newCustomerAlerts'],
    ['notifications', 'a toggle that is not a boolean', { ...allAlertsOn, lowBatteryAlerts: 'no' }, 'lowBatteryAlerts'],
    ['payments', 'a late fee with three decimals', { automaticCharging: true, lateFeeAmount: '25.005' }, 'lateFeeAmount'],
    ['payments', 'a negative late fee', { automaticCharging: true, lateFeeAmount: '-1.00' }, 'lateFeeAmount'],
    ['payments', 'a late fee that is not a number', { automaticCharging: true, lateFeeAmount: 'twenty' }, 'lateFeeAmount'],
    [
      'payments',
      'a publishable key (configuration, not a setting)',
      { automaticCharging: true, lateFeeAmount: '25.00', publishableKey: 'pk_x' },
      'publishableKey',
    ],
  ])('PUT %s refuses %s with 400 naming the field, and writes nothing', async (section, _what, body, field) => {
    const before = await settingsEvents();
    const response = await inject('PUT', `/api/settings/${section}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(field);
    expect(await settingsEvents()).toEqual(before);
  });

  it('refuses a body that is not an object with 400', async () => {
    const response = await platform.api.app.inject({
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: '[true]',
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('lets managers change settings; clerks and auditors may read them but get 403 on every change', async () => {
    const manager = await platform.signIn('manager');
    expect((await inject('PUT', '/api/settings/business-profile', { name: 'Managed Storage' }, manager)).statusCode).toBe(200);
    for (const role of ['clerk', 'auditor'] as const) {
      const session = await platform.signIn(role);
      expect((await inject('GET', '/api/settings', undefined, session)).statusCode).toBe(200);
      const before = await settingsEvents();
      for (const [url, body] of [
        ['/api/settings/business-profile', { name: 'Not Allowed' }],
        ['/api/settings/notifications', { ...allAlertsOn, newCustomerAlerts: false }],
        ['/api/settings/payments', { automaticCharging: false, lateFeeAmount: '1.00' }],
      ] as const) {
        const response = await inject('PUT', url, body, session);
        expect(response.statusCode, `${role} ${url}`).toBe(403);
      }
      expect(await settingsEvents()).toEqual(before);
    }
  });

  describe('notification toggles, respected by the projector', () => {
    const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
    const settle = async (position: Position | null) => {
      if (position) await platform.api.afterAppend(position, 10_000);
    };
    const setAlerts = async (changes: Partial<typeof allAlertsOn>) => {
      const response = await inject('PUT', '/api/settings/notifications', { ...allAlertsOn, ...changes });
      expect(response.statusCode).toBe(200);
      expect(response.json().notifications).toEqual({ ...allAlertsOn, ...changes });
    };
    const notifications = async (): Promise<Array<{ type: string; title: string; message: string }>> => (await inject('GET', '/api/notifications')).json();
    const raisedFor = async (type: string, text: string) => (await notifications()).filter((n) => n.type === type && n.message.includes(text)).length;

    const addCustomer = async (lastName: string) => {
      const email = `${lastName.toLowerCase()}@example.com`;
      const response = await inject('POST', '/api/customers', { firstName: 'Toggle', lastName, email, status: 'active' });
      expect(response.statusCode).toBe(201);
      return response.json() as { id: string };
    };
    const overdueInvoice = async (customerId: string, invoiceNumber: string) => {
      const invoiceId = randomUUID();
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await generateInvoice(
        ctx(),
        { invoiceNumber, customerId, leaseId: null, amount: '99.00', dueDate: yesterday, status: 'sent', description: null },
        invoiceId,
      );
      await settle((await markInvoiceOverdue(ctx(), invoiceId)).position);
    };
    const lowBattery = async (serial: string) => {
      const lockId = randomUUID();
      await installLock(ctx(), { serial, unitId: null, status: 'active', batteryLevel: 100, firmwareVersion: null }, lockId);
      await settle((await recordLockHeartbeat(ctx(), lockId, { batteryLevel: 5, firmwareVersion: null })).position);
    };

    it('new customer alerts: off, the next new customer raises nothing; on again, the next one does', async () => {
      await addCustomer('Before');
      expect(await raisedFor('customer_added', 'Toggle Before')).toBe(1);

      await setAlerts({ newCustomerAlerts: false });
      await addCustomer('WhileOff');
      expect(await raisedFor('customer_added', 'Toggle WhileOff')).toBe(0);

      await setAlerts({ newCustomerAlerts: true });
      await addCustomer('After');
      expect(await raisedFor('customer_added', 'Toggle After')).toBe(1);
    });

    it('overdue payment alerts govern payment_overdue', async () => {
      const customer = await addCustomer('Payer');
      await setAlerts({ overduePaymentAlerts: false });
      await overdueInvoice(customer.id, 'INV-TOGGLE-OFF');
      expect(await raisedFor('payment_overdue', 'INV-TOGGLE-OFF')).toBe(0);

      await setAlerts({ overduePaymentAlerts: true });
      await overdueInvoice(customer.id, 'INV-TOGGLE-ON');
      expect(await raisedFor('payment_overdue', 'INV-TOGGLE-ON')).toBe(1);
    });

    it('low battery alerts govern lock_battery_low', async () => {
      await setAlerts({ lowBatteryAlerts: false });
      await lowBattery('LK-TOGGLE-OFF');
      expect(await raisedFor('lock_battery_low', 'LK-TOGGLE-OFF')).toBe(0);

      await setAlerts({ lowBatteryAlerts: true });
      await lowBattery('LK-TOGGLE-ON');
      expect(await raisedFor('lock_battery_low', 'LK-TOGGLE-ON')).toBe(1);
    });
  });

  describe('password change', () => {
    let email: string;
    let password: string;
    let session: string;
    const signIn = (as: { email: string; password: string }) => platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: as });
    const change = (body: Record<string, unknown>) => inject('PUT', '/api/auth/password', body, session);

    beforeAll(async () => {
      ({ email, password } = await platform.createStaff('clerk'));
      session = sessionCookie((await signIn({ email, password })).headers['set-cookie']);
    });

    it.each([
      [
        'a wrong current password',
        { currentPassword: 'not my password', newPassword: 'brand-new-secret', confirmPassword: 'brand-new-secret' },
        'currentPassword',
      ],
      ['a new password under 12 characters', { newPassword: 'tiny-secret', confirmPassword: 'tiny-secret' }, 'newPassword'],
      ['a new password too easy to guess', { newPassword: 'password1234', confirmPassword: 'password1234' }, 'newPassword'],
      ['a new password equal to the current one', { newPassword: 'correct horse battery', confirmPassword: 'correct horse battery' }, 'newPassword'],
      ['a confirmation that differs', { newPassword: 'brand-new-secret', confirmPassword: 'brand-new-secreT' }, 'confirmPassword'],
      ['a missing confirmation', { newPassword: 'brand-new-secret', confirmPassword: undefined }, 'confirmPassword'],
    ])('refuses %s with 400 naming the field, and changes nothing', async (_what, overrides, field) => {
      const response = await change({ currentPassword: password, ...overrides });
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe(field);
      expect(response.json().message).toContain(field);
      expect((await signIn({ email, password })).statusCode).toBe(200);
    });

    it('says why a new password is refused: too short, too easy to guess, built from their own email; nothing is written', async () => {
      const staffId = (await inject('GET', '/api/auth/user', undefined, session)).json().id as string;
      const credentials = () => platform.api.pool.oneFirst(sql.unsafe`SELECT count(*)::int AS n FROM staff_credentials WHERE staff_id = ${staffId}`);
      const before = await credentials();
      const refusal = async (newPassword: string) => (await change({ currentPassword: password, newPassword, confirmPassword: newPassword })).json();
      expect(await refusal('12345678')).toEqual({ field: 'newPassword', message: 'newPassword: must be at least 12 characters' });
      expect(await refusal('password1234')).toEqual({
        field: 'newPassword',
        message: 'newPassword: is too easy to guess: This is similar to a commonly used password. Add more words that are less common.',
      });
      expect((await refusal(email)).message).toMatch(/^newPassword: is too easy to guess: It contains the name or email of the account\./);
      expect(await credentials()).toBe(before);
      expect((await platform.api.store.readStream(`staff-${staffId}`)).map((e) => e.type)).toEqual(['staff_registered']);
    });

    it('changes the password of any role: the session stays valid, the old password stops working, the new one works', async () => {
      const newPassword = 'brand-new-secret';
      const response = await change({ currentPassword: password, newPassword, confirmPassword: newPassword });
      expect(response.statusCode).toBe(204);

      const me = await inject('GET', '/api/auth/user', undefined, session);
      expect(me.statusCode).toBe(200);
      expect(me.json().email).toBe(email);
      expect((await signIn({ email, password })).statusCode).toBe(401);
      expect((await signIn({ email, password: newPassword })).statusCode).toBe(200);

      const staffId = me.json().id as string;
      const events = await platform.api.store.readStream(`staff-${staffId}`);
      expect(events.map((e) => e.type)).toEqual(['staff_registered', 'staff_password_changed']);
      expect(JSON.stringify(events[1]!.data)).not.toContain(newPassword);
    });

    it('limits password change attempts per account, so a stolen session cannot guess the current password', async () => {
      const guesser = await platform.signIn('manager');
      const guess = (n: number) =>
        inject('PUT', '/api/auth/password', { currentPassword: `guess-${n}`, newPassword: 'brand-new-secret', confirmPassword: 'brand-new-secret' }, guesser);
      for (let n = 0; n < 10; n++) expect((await guess(n)).statusCode).toBe(400);
      const limited = await guess(10);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toContain('Too many password changes');
    });
  });
});

describe('settings API with a Stripe publishable key configured', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ config: { stripePublishableKey: 'pk_test_51HxYzExampleKey1234' } });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('shows the key masked, never whole', async () => {
    const cookie = await platform.signIn('clerk');
    const response = await platform.api.app.inject({ method: 'GET', url: '/api/settings', headers: { cookie } });
    expect(response.json().payments.publishableKey).toBe('pk_test_••••1234');
    expect(response.body).not.toContain('51HxYzExampleKey');
  });
});
