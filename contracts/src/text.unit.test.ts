import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText } from './text.ts';

describe('storable text', () => {
  it('refuses a NUL character and unpaired surrogates, and keeps every real character', () => {
    for (const bad of ['a\u0000b', '\u0000', '\ud800', 'x\udfff', '\udc00\ud800', 'ok \ud83d']) expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['', 'plain', 'Zoë – 東京 🚀', '\ud83d\ude80', '\u0001\u001f\ufffd']) expect(isStorableText(good), good).toBe(true);
  });

  it('names the path of the first bad string or key, however deep', () => {
    expect(findUnstorableText({ a: 'fine', b: ['ok', { c: 'x\u0000' }] })).toBe('b.1.c');
    expect(findUnstorableText({ 'k\ud800': 1 })).toBe('k\ufffd');
    expect(findUnstorableText('\ud800')).toBe('');
    expect(findUnstorableText({ a: 1, b: null, c: [true, 2.5] })).toBeNull();
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 30_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toBe(Array(30_000).fill('0').join('.'));
  });
});
