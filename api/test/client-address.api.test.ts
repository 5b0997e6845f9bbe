import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, describe, expect, it } from 'vitest';

// The public forms allow 20 submissions per address per 10 minutes; refused bodies count too.
const LIMIT = 20;

/** Sends the limit plus one submissions from `remoteAddress`, each claiming another forwarded address. */
async function statusesOf(platform: TestPlatform, remoteAddress: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) {
    const response = await platform.api.app.inject({
      method: 'POST',
      url: '/api/public/waitlist',
      payload: {},
      remoteAddress,
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('the client address', () => {
  const platforms: TestPlatform[] = [];
  afterAll(async () => {
    for (const platform of platforms) await platform.close();
  });

  it('ignores X-Forwarded-For by default: the per-address limit sees the real peer', async () => {
    const platform = await startTestPlatform();
    platforms.push(platform);
    const statuses = await statusesOf(platform, '198.51.100.7');
    expect(statuses.slice(0, LIMIT).every((s) => s === 400)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
  });

  it('honours X-Forwarded-For from a proxy TRUST_PROXY names, and only from it', async () => {
    const platform = await startTestPlatform({ config: { trustProxy: ['198.51.100.0/24'] } });
    platforms.push(platform);
    expect(await statusesOf(platform, '198.51.100.9')).not.toContain(429);
    const untrusted = await statusesOf(platform, '192.0.2.50');
    expect(untrusted[LIMIT]).toBe(429);
  });

  it('honours one forwarded hop with TRUST_PROXY=1', async () => {
    const platform = await startTestPlatform({ config: { trustProxy: 1 } });
    platforms.push(platform);
    expect(await statusesOf(platform, '192.0.2.60')).not.toContain(429);
  });
});
