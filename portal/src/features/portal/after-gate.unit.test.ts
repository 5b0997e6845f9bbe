import { describe, expect, it } from 'vitest';
import { gateThenBack, returnPath } from './after-gate.ts';

describe('the way back from the gate', () => {
  it('returns to a checkout page, query included', () => {
    const path = '/checkout/0b7d5f3e-1111-4222-8333-444455556666?x=1';
    expect(gateThenBack(path)).toBe(`/customer-portal?next=${encodeURIComponent(path)}`);
    expect(returnPath(path)).toBe(path);
    expect(returnPath('/checkout?invoiceId=abc')).toBe('/checkout?invoiceId=abc');
  });

  it('goes nowhere else: other pages, other sites, nothing', () => {
    for (const next of [null, '', '/', '/customer-portal', 'https://evil.example/checkout/1', '//evil.example/checkout/1', '/\\evil.example', 'checkout/1']) {
      expect(returnPath(next), String(next)).toBeNull();
    }
  });
});
