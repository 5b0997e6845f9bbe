import { MessageTemplateKey } from '@storage/contracts/enums';
import { describe, expect, it } from 'vitest';
import { defaultTemplates, fill, renderTemplate, unknownPlaceholders } from './templates.ts';

describe('message templates', () => {
  it('fills each known placeholder, leaves a missing value empty and unknown braces alone', () => {
    expect(fill('Hi {firstName}, {amount} due {dueDate} {notOurs}', { firstName: 'Ana', amount: '$5.00' })).toBe('Hi Ana, $5.00 due  {notOurs}');
  });

  it('never reads a value as a placeholder (a renter named {gateCode} stays so)', () => {
    expect(fill('Hi {firstName}, code {gateCode}', { firstName: '{gateCode}', gateCode: '1234' })).toBe('Hi {gateCode}, code 1234');
  });

  it('names the unknown placeholders once each, in order', () => {
    expect(unknownPlaceholders('{a} {firstName} {b} {a} {}')).toEqual(['a', 'b', '']);
    expect(unknownPlaceholders('no placeholders')).toEqual([]);
  });

  it('keeps a subject on one line', () => {
    expect(renderTemplate({ subject: 'For {firstName}', body: '{firstName}' }, { firstName: 'A\nB' })).toEqual({ subject: 'For A B', body: 'A\nB' });
  });

  it("uses only known placeholders in the product's own wording of every message", () => {
    for (const key of MessageTemplateKey.options) {
      expect(unknownPlaceholders(defaultTemplates[key].subject + defaultTemplates[key].body), key).toEqual([]);
    }
  });
});
