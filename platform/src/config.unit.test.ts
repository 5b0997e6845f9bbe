import { describe, expect, it } from 'vitest';
import { parseTrustProxy, readConfig } from './config.ts';

describe('TRUST_PROXY', () => {
  it('trusts no forwarded header when unset, empty or false', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
  });

  it('takes true only when spelled out, a hop count, or addresses and CIDR ranges', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1,fd00::/8')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8']);
  });

  it('refuses anything else, naming the bad entry', () => {
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1,,10.0.0.2', '1.2.3.4/8/1']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });
});
