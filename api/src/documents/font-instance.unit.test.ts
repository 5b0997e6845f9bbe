import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import decompressWoff2 from 'wawoff2/decompress.js';
import { staticInstance } from './font-instance.ts';

async function slice(file: string): Promise<{ sfnt: Buffer; font: fontkit.Font }> {
  const sfnt = Buffer.from(await decompressWoff2(await readFile(fileURLToPath(import.meta.resolve(file)))));
  return { sfnt, font: fontkit.create(sfnt) as fontkit.Font };
}

describe('a variable font as a static font', () => {
  it('has the outline and advance of every glyph at the weight asked for, composites included', async () => {
    const { sfnt, font } = await slice('@fontsource-variable/noto-sans/files/noto-sans-latin-wght-normal.woff2');
    const bold = font.getVariation({ wght: 700 });
    const instance = fontkit.create(staticInstance(sfnt, font, 700)) as fontkit.Font;
    expect(instance.numGlyphs).toBe(font.numGlyphs);
    expect(Object.keys(instance.variationAxes)).toEqual([]);
    for (let id = 0; id < font.numGlyphs; id++) {
      const [made, wanted] = [instance.getGlyph(id), bold.getGlyph(id)];
      expect(made.advanceWidth, `advance of glyph ${id}`).toBe(Math.round(wanted.advanceWidth));
      expect(made.path.commands.length === 0, `glyph ${id} is empty`).toBe(wanted.path.commands.length === 0);
      if (wanted.path.commands.length === 0) continue;
      for (const side of ['minX', 'minY', 'maxX', 'maxY'] as const)
        expect(Math.abs(made.bbox[side] - wanted.bbox[side]), `${side} of glyph ${id}`).toBeLessThanOrEqual(1);
    }
    // é is a composite of e and an accent in the font: here one outline, as wide as the bold e.
    const eAcute = instance.glyphForCodePoint(0xe9);
    expect(eAcute.path.commands.length).toBeGreaterThan(instance.glyphForCodePoint(0x65).path.commands.length);
    expect(instance.glyphForCodePoint(0x65).advanceWidth).toBeGreaterThan(font.glyphForCodePoint(0x65).advanceWidth);
  });

  it('keeps what Arabic needs to be shaped', async () => {
    const { sfnt, font } = await slice('@fontsource-variable/noto-sans-arabic/files/noto-sans-arabic-arabic-wght-normal.woff2');
    const instance = fontkit.create(staticInstance(sfnt, font, 700)) as fontkit.Font;
    const shaped = (f: fontkit.Font) => f.layout('محمد').glyphs.map((g) => g.id);
    expect(shaped(instance)).toEqual(shaped(font));
    expect(new Set(shaped(instance)).size).toBe(4);
  });
});
