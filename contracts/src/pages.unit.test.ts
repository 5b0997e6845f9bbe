import { describe, expect, it } from 'vitest';
import { CONSOLE_PAGES, isPage, PORTAL_PAGES } from './pages.ts';

describe('isPage', () => {
  it('matches the listed paths, with or without a trailing slash', () => {
    expect(isPage(CONSOLE_PAGES, '/customers')).toBe(true);
    expect(isPage(CONSOLE_PAGES, '/customers/')).toBe(true);
    expect(isPage(CONSOLE_PAGES, '/')).toBe(true);
  });

  it('matches a parameter with exactly one non-empty segment', () => {
    expect(isPage(PORTAL_PAGES, '/checkout/abc')).toBe(true);
    expect(isPage(PORTAL_PAGES, '/checkout')).toBe(true);
    expect(isPage(PORTAL_PAGES, '/checkout/abc/def')).toBe(false);
    expect(isPage(CONSOLE_PAGES, '/customers/0b7d5f3e-1111-4222-8333-444455556666')).toBe(true);
    expect(isPage(CONSOLE_PAGES, '/customers/0b7d5f3e-1111-4222-8333-444455556666/leases')).toBe(false);
  });

  it('refuses unknown paths and near misses', () => {
    expect(isPage(CONSOLE_PAGES, '/customerss')).toBe(false);
    expect(isPage(CONSOLE_PAGES, '/customer/123')).toBe(false);
    expect(isPage(PORTAL_PAGES, '/no-such-page')).toBe(false);
    expect(isPage(PORTAL_PAGES, '//')).toBe(false);
  });
});
