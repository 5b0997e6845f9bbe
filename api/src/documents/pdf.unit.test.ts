import { inflateSync } from 'node:zlib';
import type { Ledger } from '@storage/contracts/ledger';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { statementPdf } from '../ledger/statement.ts';
import { pdfFonts } from './fonts.ts';
import { newPdf, pdfText, textRuns } from './pdf.ts';

/** The PDF's bytes, as pdfkit streams them. */
async function bytesOf(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface ShownGlyph {
  /** The font's name in the file, e.g. 'ABCDEF+NotoSansSC-Regular-116'. */
  font: string;
  glyph: number;
  /** What the font's ToUnicode map says the glyph stands for. */
  text: string;
  /** Whether the embedded font file has an outline for the glyph. */
  inked: boolean;
}

interface PdfObjects {
  text: string;
  objects: Map<string, { dict: string; stream: Buffer | null }>;
}

/** The file's objects: each one's dictionary, and its stream inflated. */
function objectsOf(pdf: Buffer): PdfObjects {
  const text = pdf.toString('latin1');
  const objects: PdfObjects['objects'] = new Map();
  for (const match of text.matchAll(/(\d+) 0 obj\n/g)) {
    const start = match.index + match[0].length;
    const body = text.slice(start, text.indexOf('\nendobj', start));
    const streamAt = body.indexOf('\nstream\n');
    if (streamAt < 0) {
      objects.set(match[1]!, { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, streamAt);
    const raw = pdf.subarray(start + streamAt + 8, start + streamAt + 8 + Number(/\/Length (\d+)/.exec(dict)![1]));
    objects.set(match[1]!, { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
  }
  return { text, objects };
}

/** The pages' content streams, as text. */
const contentsOf = ({ text, objects }: PdfObjects) => [...text.matchAll(/\/Contents (\d+) 0 R/g)].map(([, id]) => objects.get(id!)!.stream!.toString('latin1'));

/**
 * Every glyph the pages draw, in the order drawn, read from the file itself: the content streams'
 * font selections and shown strings, each font's ToUnicode map and embedded font file. Throws for
 * a font that is not embedded with a ToUnicode map (a standard font, as Helvetica was).
 */
function shownGlyphs(pdf: Buffer): ShownGlyph[] {
  const parsed = objectsOf(pdf);
  const { text, objects } = parsed;
  const ref = (dict: string, key: string) => {
    const id = new RegExp(`/${key} \\[?(\\d+) 0 R`).exec(dict)?.[1];
    if (!id) throw new Error(`no /${key} in ${dict}`);
    return objects.get(id)!;
  };

  const fonts = new Map<string, { name: string; unicode: Map<number, string>; file: fontkit.Font }>();
  for (const [, resource, id] of text.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    if (fonts.has(resource!)) continue;
    const font = objects.get(id!)!.dict;
    const name = /\/BaseFont \/(\S+)/.exec(font)![1]!;
    if (!font.includes('/Subtype /Type0')) throw new Error(`${name} is not an embedded font`);
    const unicode = new Map<number, string>();
    const cmap = ref(font, 'ToUnicode').stream!.toString('latin1');
    const utf16 = (hex: string) => String.fromCharCode(...(hex.replace(/\s/g, '').match(/.{4}/g) ?? []).map((unit) => Number.parseInt(unit, 16)));
    for (const [, first, list] of cmap.matchAll(/<([0-9a-f]{4})> <[0-9a-f]{4}> \[([^\]]*)\]/g)) {
      let glyph = Number.parseInt(first!, 16);
      for (const [, hex] of list!.matchAll(/<([0-9a-f\s]+)>/g)) unicode.set(glyph++, utf16(hex!));
    }
    const descriptor = ref(ref(font, 'DescendantFonts').dict, 'FontDescriptor').dict;
    fonts.set(resource!, { name, unicode, file: fontkit.create(ref(descriptor, 'FontFile2').stream!) as fontkit.Font });
  }

  const shown: ShownGlyph[] = [];
  for (const contents of contentsOf(parsed)) {
    let font: (typeof fonts extends Map<string, infer F> ? F : never) | undefined;
    for (const [, resource, strings] of contents.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
      if (resource) font = fonts.get(resource);
      else
        for (const [, hex] of strings!.matchAll(/<([0-9a-f]+)>/g)) {
          for (const unit of hex!.match(/.{4}/g) ?? []) {
            const glyph = Number.parseInt(unit, 16);
            shown.push({ font: font!.name, glyph, text: font!.unicode.get(glyph) ?? '', inked: font!.file.getGlyph(glyph).path.commands.length > 0 });
          }
        }
    }
  }
  return shown;
}

function ledgerOf(firstName: string, lastName: string): Ledger {
  return {
    customer: { id: 'x', firstName, lastName, address: '12 Analytical Row, Springfield' },
    asOf: '2026-12-31',
    from: null,
    openingBalance: '0.00',
    entries: [
      {
        id: 'c',
        date: '2026-12-01',
        kind: 'charge',
        description: `Rent for ${firstName} ${lastName}`,
        invoiceNumber: 'INV-1',
        amount: '150.00',
        balance: '150.00',
      },
    ],
    balance: '150.00',
  };
}

describe('text in PDFs', () => {
  it('draws a name in Chinese, Japanese, Arabic, emoji and Latin with embedded fonts that have every glyph', async () => {
    const shown = shownGlyphs(await bytesOf(await statementPdf(ledgerOf('王小明 山田太郎', 'محمد 😀 Zoë'), { name: 'Riverside', phone: null, email: null })));
    // No .notdef, and an outline for every character that is not a space.
    expect(shown.filter((g) => g.glyph === 0)).toEqual([]);
    expect(shown.filter((g) => !g.inked && g.text.trim() !== '')).toEqual([]);
    // In the order it reads on the page: Arabic right to left, each letter in its joining form.
    const drawn = shown.map((g) => g.text).join('');
    expect(drawn).toContain('王小明 山田太郎 دمحم 😀 Zoë');
    const arabic = shown.filter((g) => g.font.includes('NotoSansArabic-Bold'));
    expect(arabic.map((g) => g.text).join('')).toBe('دمحم');
    const [, middleMeem, , initialMeem] = arabic;
    expect(middleMeem!.glyph).not.toBe(initialMeem!.glyph);
    for (const family of ['NotoSans-Bold', 'NotoSansSC-Bold', 'NotoSansArabic-Bold', 'NotoEmoji-Bold', 'NotoSans-Regular', 'NotoSansSC-Regular']) {
      expect(
        shown.some((g) => g.font.includes(family)),
        family,
      ).toBe(true);
    }
  });

  it('shows a bidi override in a name as U+FFFD, in the text and in the file title', async () => {
    const pdf = await statementPdf(ledgerOf('invoice\u202Efdp.exe', 'Smith'), { name: 'Riverside', phone: null, email: null });
    expect(pdf.info.Title).toBe('Statement for invoice\uFFFDfdp.exe Smith as of 2026-12-31');
    const drawn = shownGlyphs(await bytesOf(pdf))
      .map((g) => g.text)
      .join('');
    expect(drawn).toContain('invoice\uFFFDfdp.exe Smith');
    expect(drawn).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it('puts right-to-left words, numbers and mirrored brackets in reading order, each part in a font that has it', async () => {
    const { regular } = await pdfFonts();
    const runs = (text: string) => textRuns(text, regular).map((line) => line.map((run) => `${run.face.key.split('-')[0]}:${run.text}`));
    // fontkit reverses an Arabic run itself: it is given in the order it was written.
    expect(runs('Zoë محمد علي')).toEqual([['NotoSans:Zoë ', 'NotoSansArabic:علي', 'NotoSans: ', 'NotoSansArabic:محمد']]);
    // Arabic-Indic digits read left to right inside the Arabic; fontkit would reverse them, so they come reversed.
    expect(runs('شارع ١٢')).toEqual([['NotoSansArabic:٢١', 'NotoSans: ', 'NotoSansArabic:شارع']]);
    expect(runs('שלום (דוד)')).toEqual([['NotoSans:(', 'NotoSansHebrew:דוד', 'NotoSans:) ', 'NotoSansHebrew:שלום']]);
    expect(runs('a\u202Eb\nc\td')).toEqual([['NotoSans:a\uFFFDb'], ['NotoSans:c d']]);
    // A character no font has is drawn as U+FFFD; an invisible one is left out.
    expect(runs('x\u{10FFFD}y\u2060z')).toEqual([['NotoSans:x\uFFFDyz']]);
  });

  it('lays out a line in several fonts with one baseline, and aligns it right or centred as a whole', async () => {
    const { pdf } = await newPdf({ Title: 't', Subject: 's' });
    pdf.fontSize(10);
    pdfText(pdf, 'Zoë 王小明', 54, 100, { width: 300, align: 'right' });
    const afterRight = pdf.y;
    pdfText(pdf, 'Zoë', 54, 100, { width: 300, align: 'right' });
    expect(afterRight).toBe(pdf.y);
    expect(pdf.x).toBe(54);
    pdf.end();
    const [content] = contentsOf(objectsOf(await bytesOf(pdf)));
    const positions = [...content!.matchAll(/1 0 0 1 ([\d.]+) ([\d.]+) Tm/g)].map(([, x, y]) => ({ x: Number(x), y: Number(y) }));
    // 'Zoë ', '王' and '小明' (two slices of Noto Sans SC) on one baseline, placed as a whole
    // towards the right edge, as 'Zoë' alone is.
    const alone = positions.pop()!;
    expect(positions).toHaveLength(3);
    expect(new Set([...positions, alone].map((p) => p.y)).size).toBe(1);
    expect(positions.map((p) => p.x)).toEqual(positions.map((p) => p.x).sort((a, b) => a - b));
    expect(positions[0]!.x).toBeGreaterThan(54 + 200);
    expect(alone.x).toBeGreaterThan(positions[0]!.x);
  });
});
