import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('POST /api/stripe/webhook/simulate (anonymous payment reports)', () => {
  let platform: TestPlatform;
  const report = (remoteAddress: string) =>
    platform.api.app.inject({ method: 'POST', url: '/api/stripe/webhook/simulate', payload: { paymentIntentId: 'pi_test_unknown' }, remoteAddress });

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('is throttled per address: 60 reports in 10 minutes, then 429, while other addresses go on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await report('198.51.100.20')).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await report('198.51.100.20')).json().message).toMatch(/Too many payment reports/);
    expect((await report('198.51.100.21')).statusCode).toBe(404);
  });
});
