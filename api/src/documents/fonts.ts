import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import decompressWoff2 from 'wawoff2/decompress.js';
import { staticInstance } from './font-instance.ts';

// The typefaces the PDFs are written in: PDFKit's built-in Helvetica has Latin-1 only, so a name in
// Chinese, Japanese, Arabic, Hebrew or with an emoji came out as wrong letters. These are Noto
// families from npm (Fontsource's variable builds: one WOFF2 file per slice of Unicode, up to 5 MB
// a family), for every character the first that has it:
//   Noto Sans (Latin, Greek, Cyrillic, Vietnamese), Noto Sans Arabic, Noto Sans Hebrew,
//   Noto Sans SC (Chinese, and the kana and kanji of Japanese, in their Chinese forms),
//   Noto Emoji (monochrome).
// fontkit cannot subset a WOFF2 font (PDFKit writes a broken file), so each slice is decompressed
// to TrueType (wawoff2, Google's decoder) once per process, all at the first PDF: about 170 ms and
// 11 MB. A slice is made a static font at a weight (font-instance.ts) the first time a PDF needs
// it at that weight. fontkit's reading of a font is shared by every document; PDFKit keeps the
// glyphs each document uses, and embeds only those.

export type Weight = 400 | 700;

interface Family {
  /** The name the PDF gives it; the npm package; the slices of it used (the others repeat Noto Sans). */
  name: string;
  package: string;
  slices: (name: string) => boolean;
}

const FAMILIES: readonly Family[] = [
  { name: 'NotoSans', package: '@fontsource-variable/noto-sans', slices: () => true },
  { name: 'NotoSansArabic', package: '@fontsource-variable/noto-sans-arabic', slices: (name) => name === 'arabic' },
  { name: 'NotoSansHebrew', package: '@fontsource-variable/noto-sans-hebrew', slices: (name) => name === 'hebrew' },
  { name: 'NotoSansSC', package: '@fontsource-variable/noto-sans-sc', slices: (name) => name.startsWith('[') },
  { name: 'NotoEmoji', package: '@fontsource-variable/noto-emoji', slices: () => true },
];

/** One slice of a family, as fontkit reads it, and the code points its file is meant for. */
interface Slice {
  /** The slice's TrueType file, and fontkit's reading of it (at its default weight). */
  sfnt: Buffer;
  font: fontkit.Font;
  ranges: ReadonlyArray<readonly [number, number]>;
  /** `NotoSansSC-Bold-116`: a name of its own for each slice and weight. */
  name: (weight: Weight) => string;
}

/** A font to draw with: `key` names it to PDFKit's registerFont, once per document. */
export interface Face {
  key: string;
  font: fontkit.Font;
}

/** 'U+0000-00FF,U+0131' as ranges. */
function parseRanges(unicodeRange: string): Array<[number, number]> {
  return unicodeRange.split(',').map((part) => {
    const [start, end = start] = part.trim().slice(2).split('-') as [string, string?];
    return [Number.parseInt(start, 16), Number.parseInt(end, 16)];
  });
}

async function loadFamily(family: Family): Promise<Slice[]> {
  const unicodeJson = fileURLToPath(import.meta.resolve(`${family.package}/unicode.json`));
  const slices = Object.entries(JSON.parse(await readFile(unicodeJson, 'utf8')) as Record<string, string>).filter(([name]) => family.slices(name));
  const id = family.package.split('/')[1]!;
  return Promise.all(
    slices.map(async ([name, unicodeRange]) => {
      const slice = name.replace(/[[\]]/g, '');
      const file = fileURLToPath(import.meta.resolve(`${family.package}/files/${id}-${slice}-wght-normal.woff2`));
      const sfnt = Buffer.from(await decompressWoff2(await readFile(file)));
      return {
        sfnt,
        font: fontkit.create(sfnt) as fontkit.Font,
        ranges: parseRanges(unicodeRange),
        name: (weight: Weight) => `${family.name}-${weight === 700 ? 'Bold' : 'Regular'}-${slice}`,
      };
    }),
  );
}

/**
 * The fonts of one weight. Each is a variable font at that weight (its default weight may be
 * another: Noto Sans SC's is Thin), under a name of its own (PDFKit takes two fonts of one name to
 * be the same font), with the line metrics of Noto Sans, so that runs in different fonts share one
 * baseline and one line height.
 */
export class FontSet {
  private readonly faces = new Map<Slice, Face>();
  private readonly found = new Map<number, Face | null>();
  private readonly families: readonly Slice[][];
  private readonly weight: Weight;

  constructor(families: readonly Slice[][], weight: Weight) {
    this.families = families;
    this.weight = weight;
  }

  /** The first font that has a glyph for `codePoint`, or null when none has. */
  faceFor(codePoint: number): Face | null {
    let face = this.found.get(codePoint);
    if (face === undefined) {
      face = null;
      search: for (const slices of this.families) {
        for (const slice of slices) {
          if (slice.ranges.some(([start, end]) => codePoint >= start && codePoint <= end) && slice.font.hasGlyphForCodePoint(codePoint)) {
            face = this.face(slice);
            break search;
          }
        }
      }
      this.found.set(codePoint, face);
    }
    return face;
  }

  /** The font for text no other font can draw: Noto Sans, whose Latin slice has U+FFFD. */
  get fallback(): Face {
    const face = this.faceFor(0xfffd);
    if (!face) throw new Error('Noto Sans has no U+FFFD');
    return face;
  }

  private face(slice: Slice): Face {
    let face = this.faces.get(slice);
    if (!face) {
      const metrics = this.families[0]![0]!.font;
      const instance =
        slice.font.variationAxes.wght?.default === this.weight
          ? slice.font
          : (fontkit.create(staticInstance(slice.sfnt, slice.font, this.weight)) as fontkit.Font);
      // The font itself, seen with another name and line metrics (nothing is copied).
      const font = Object.create(instance, {
        postscriptName: { value: slice.name(this.weight) },
        ascent: { value: (metrics.ascent * instance.unitsPerEm) / metrics.unitsPerEm },
        descent: { value: (metrics.descent * instance.unitsPerEm) / metrics.unitsPerEm },
        lineGap: { value: (metrics.lineGap * instance.unitsPerEm) / metrics.unitsPerEm },
      }) as fontkit.Font;
      face = { key: slice.name(this.weight), font };
      this.faces.set(slice, face);
    }
    return face;
  }
}

export interface Fonts {
  regular: FontSet;
  bold: FontSet;
}

let loading: Promise<Fonts> | null = null;

/** The fonts, read the first time a PDF is written and kept for the life of the process. */
export function pdfFonts(): Promise<Fonts> {
  loading ??= Promise.all(FAMILIES.map(loadFamily)).then(
    (families) => ({ regular: new FontSet(families, 400), bold: new FontSet(families, 700) }),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
