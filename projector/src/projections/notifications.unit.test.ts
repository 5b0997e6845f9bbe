import { describe, expect, it } from 'vitest';
import { overdueMessage } from './notifications.ts';

describe('the bell for an invoice past due', () => {
  it('says what is owed on it', () => {
    expect(overdueMessage('Ada Lovelace', 'INV-1', '157.00', '0.00')).toBe('Ada Lovelace: invoice INV-1 is past due, $157.00 owed');
  });

  it('says what is still owed, and of what, when part was paid', () => {
    expect(overdueMessage('Ada Lovelace', 'INV-1', '157.00', '137.00')).toBe('Ada Lovelace: invoice INV-1 is past due, $20.00 of $157.00 owed');
  });
});
