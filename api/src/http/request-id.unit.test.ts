import { describe, expect, it } from 'vitest';
import { trustsPeer } from './request-id.ts';

// Whose X-Request-Id is believed: only the proxy TRUST_PROXY names, however its address is spelled.

describe('trustsPeer', () => {
  it('trusts no one without TRUST_PROXY', () => {
    expect(trustsPeer(undefined)('127.0.0.1')).toBe(false);
    expect(trustsPeer(false)('10.0.0.1')).toBe(false);
  });

  it('trusts every peer with true, and the first hop with a hop count of at least 1', () => {
    expect(trustsPeer(true)('203.0.113.9')).toBe(true);
    expect(trustsPeer(1)('203.0.113.9')).toBe(true);
    expect(trustsPeer(0)('203.0.113.9')).toBe(false);
  });

  it('trusts listed addresses and ranges, IPv4 seen through IPv6 sockets included, and nothing else', () => {
    const trusted = trustsPeer(['10.0.0.1', '192.168.50.0/24', 'fd00::/8']);
    expect(trusted('10.0.0.1')).toBe(true);
    expect(trusted('::ffff:10.0.0.1')).toBe(true);
    expect(trusted('192.168.50.200')).toBe(true);
    expect(trusted('fd00::17')).toBe(true);
    expect(trusted('10.0.0.2')).toBe(false);
    expect(trusted('192.168.51.1')).toBe(false);
    expect(trusted('fe80::1')).toBe(false);
    expect(trusted(undefined)).toBe(false);
  });
});
