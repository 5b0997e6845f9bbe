import { describe, expect, it } from 'vitest';
import { findUnstorableText, inertBidiControls, inertBidiControlsIn, isStorableText } from './text.ts';

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

describe('bidi controls shown inert', () => {
  it('shows every embedding, override and isolate control as U+FFFD, so nothing after it is reordered', () => {
    expect(inertBidiControls('invoice\u202Efdp.exe')).toBe('invoice\uFFFDfdp.exe');
    const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
    expect(inertBidiControls(`a${controls.join('b')}c`)).toBe(`a${controls.map(() => '\uFFFD').join('b')}c`);
  });

  it('leaves real right-to-left names, and the marks that only place neutral characters, as they are', () => {
    for (const name of ['محمد علي', 'דוד לוי', 'Zoë 王小明 😀', 'علي\u200F (12)', 'a\u200Eb\u061C', '']) expect(inertBidiControls(name)).toBe(name);
  });

  it('reaches every string and key of a parsed JSON value, however deep', () => {
    const value = JSON.parse('{"name":"x\u202Ey","list":[{"note":"\u2067ok"},"plain",3,null],"\u202Dkey":true}');
    expect(inertBidiControlsIn(value)).toEqual({ name: 'x\uFFFDy', list: [{ note: '\uFFFDok' }, 'plain', 3, null], '\uFFFDkey': true });
    expect(inertBidiControlsIn('\u202E')).toBe('\uFFFD');
    expect(inertBidiControlsIn(null)).toBeNull();
    let deep: unknown = '\u202E';
    for (let i = 0; i < 30_000; i++) deep = [deep];
    let inner = inertBidiControlsIn(deep);
    for (let i = 0; i < 30_000; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe('\uFFFD');
  });
});
