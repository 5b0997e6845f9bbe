import { inertBidiControls } from '@storage/contracts/text';
import bidiJs from 'bidi-js';
import PDFDocument from 'pdfkit';
import { type Face, type FontSet, type Fonts, pdfFonts } from './fonts.ts';

// The one look of the documents the API writes as PDF (the lease agreement, the statement, the
// pre-lien letter): US Letter, the same margins, ink, muted grey and rules, headings underlined,
// and every text drawn by pdfText, in fonts that have its characters (fonts.ts).

export const PAGE_MARGIN = 54;
export const INK = '#0f172a';
export const MUTED = '#64748b';
export const RULE = '#cbd5e1';

const calendarDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Mar 1, 2025' for '2025-03-01', whatever the server's time zone. */
export function formatCalendarDate(isoDate: string): string {
  return calendarDate.format(new Date(`${isoDate}T00:00:00Z`));
}

const documentFonts = new WeakMap<PDFKit.PDFDocument, Fonts>();

/** A new US Letter document with its title in the file's properties; `width` is the text column's. */
export async function newPdf(info: { Title: string; Subject: string }) {
  const fonts = await pdfFonts();
  const pdf = new PDFDocument({
    size: 'LETTER',
    margin: PAGE_MARGIN,
    info: { Title: inertBidiControls(info.Title), Subject: inertBidiControls(info.Subject) },
  });
  documentFonts.set(pdf, fonts);
  useFace(pdf, fonts.regular.fallback);
  return { pdf, left: PAGE_MARGIN, width: pdf.page.width - 2 * PAGE_MARGIN };
}

/** A section heading across the text column, with a rule under it. */
export function pdfHeading(pdf: PDFKit.PDFDocument, title: string, left: number, width: number): void {
  pdf.moveDown(0.6);
  pdfText(pdf, title, left, pdf.y, { width, bold: true, size: 12, color: INK });
  pdfRule(pdf, left, width, pdf.y + 2);
  pdf.moveDown(0.5);
}

/** A thin rule across the text column at `y`. */
export function pdfRule(pdf: PDFKit.PDFDocument, left: number, width: number, y: number): void {
  pdf
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
}

export interface PdfTextOptions extends PDFKit.Mixins.TextOptions {
  bold?: boolean;
  /** The font size and fill colour from here on, as pdf.fontSize() and pdf.fillColor() set them. */
  size?: number;
  color?: string;
}

/**
 * PDFKit's text() for any text: bidi controls shown inert (contracts text.ts); each run of
 * characters in a font that has them, U+FFFD for a character no font has; Arabic and Hebrew shaped
 * by fontkit and laid right to left, in the order of the Unicode bidi algorithm (a paragraph that
 * wraps keeps the order of the whole paragraph on each line: exact for a line or less, as names,
 * addresses and table cells are).
 */
export function pdfText(pdf: PDFKit.PDFDocument, text: string, options?: PdfTextOptions): void;
export function pdfText(pdf: PDFKit.PDFDocument, text: string, x: number, y: number, options?: PdfTextOptions): void;
export function pdfText(pdf: PDFKit.PDFDocument, text: string, ...rest: [PdfTextOptions?] | [number, number, PdfTextOptions?]): void {
  const [x, y, options = {}] =
    typeof rest[0] === 'number' ? (rest as [number, number, PdfTextOptions?]) : [undefined, undefined, rest[0] as PdfTextOptions | undefined];
  const fonts = documentFonts.get(pdf);
  if (!fonts) throw new Error('pdfText draws on documents from newPdf only');
  const { bold, size, color, ...textOptions } = options;
  if (size !== undefined) pdf.fontSize(size);
  if (color !== undefined) pdf.fillColor(color);
  const set = bold ? fonts.bold : fonts.regular;
  const paragraphs = textRuns(text, set);
  const startX = x ?? pdf.x;
  if (y !== undefined) pdf.y = y;

  // One font for all of it: one call, laid out exactly as PDFKit lays out its own paragraphs.
  const faces = new Set(paragraphs.flat().map((run) => run.face));
  if (faces.size <= 1 && paragraphs.every((runs) => runs.length <= 1)) {
    useFace(pdf, faces.values().next().value ?? set.fallback);
    pdf.text(paragraphs.map((runs) => runs[0]?.text ?? '').join('\n'), startX, pdf.y, textOptions);
    return;
  }

  for (const runs of paragraphs) {
    if (runs.length === 0) {
      useFace(pdf, set.fallback);
      pdf.y += pdf.currentLineHeight(true) + (textOptions.lineGap ?? 0) + (textOptions.paragraphGap ?? 0);
      continue;
    }
    // PDFKit aligns each part of a continued text on its own (they overlap): a right or centred
    // line is placed here, left-aligned from where it starts. One that wraps is left-aligned.
    const available = textOptions.width ?? pdf.page.width - pdf.page.margins.right - startX;
    let lineX = startX;
    if (textOptions.align === 'right' || textOptions.align === 'center') {
      const width = runs.reduce((sum, run) => {
        useFace(pdf, run.face);
        return sum + pdf.widthOfString(run.text, textOptions);
      }, 0);
      if (width <= available) lineX += textOptions.align === 'right' ? available - width : (available - width) / 2;
    }
    // A placed line keeps a point to spare, so that rounding cannot wrap its last part.
    const partOptions = { ...textOptions, align: 'left' as const, width: available - (lineX - startX) + (lineX > startX ? 1 : 0) };
    runs.forEach((run, index) => {
      useFace(pdf, run.face);
      const continued = index < runs.length - 1;
      if (index === 0) pdf.text(run.text, lineX, pdf.y, { ...partOptions, continued });
      else pdf.text(run.text, { ...partOptions, continued });
    });
    pdf.x = startX;
  }
}

function useFace(pdf: PDFKit.PDFDocument, face: Face): void {
  // registerFont takes fontkit's font as it takes a file: PDFKit reads either with fontkit.
  pdf.registerFont(face.key, face.font as unknown as Buffer);
  pdf.font(face.key);
}

/** A part of a line, in one font, in the order it is drawn from left to right. */
export interface Run {
  text: string;
  face: Face;
}

// bidi-js's module is its factory (CommonJS), which its types call `default`.
const bidi = (bidiJs as unknown as typeof bidiJs.default)();
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
// fontkit lays a run out right to left when the first character of a script in it is of one of
// these scripts (fontkit's list; scriptless characters are Common, Inherited or Unknown).
const RTL_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Cypriot}\p{Script=Kharoshthi}\p{Script=Phoenician}\p{Script=Nko}\p{Script=Lydian}\p{Script=Avestan}\p{Script=Imperial_Aramaic}\p{Script=Inscriptional_Pahlavi}\p{Script=Inscriptional_Parthian}\p{Script=Old_South_Arabian}\p{Script=Old_Turkic}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Meroitic_Cursive}\p{Script=Meroitic_Hieroglyphs}\p{Script=Manichaean}\p{Script=Mende_Kikakui}\p{Script=Nabataean}\p{Script=Old_North_Arabian}\p{Script=Palmyrene}\p{Script=Psalter_Pahlavi}]/u;
const SCRIPTLESS = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
// Characters that belong to the one before them: combining marks, joiners, variation selectors,
// emoji modifiers and tags. They stay in its font when it has them.
const MARK = /\p{M}/u;
const CONTINUATION_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x200c, 0x200d],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
  [0xe0020, 0xe007f],
  [0xe0100, 0xe01ef],
];
const isContinuation = (char: string, codePoint: number) =>
  MARK.test(char) || CONTINUATION_RANGES.some(([start, end]) => codePoint >= start && codePoint <= end);
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const SPACE = /\s/u;

function fontkitLaysOutRtl(text: string): boolean {
  for (const char of text) if (!SCRIPTLESS.test(char)) return RTL_SCRIPT.test(char);
  return false;
}

const reversed = (text: string) =>
  Array.from(graphemes.segment(text), (part) => part.segment)
    .reverse()
    .join('');

/** `text` split at its spaces, the spaces kept as parts of their own. */
const words = (text: string) => text.split(/(\s+)/u).filter(Boolean);

/**
 * The runs of each paragraph (line break) of `text`, left to right. fontkit shapes a run in the
 * order of its characters and reverses the glyphs of a right-to-left script itself, so a run it
 * would lay out in the other direction than the bidi algorithm puts it is reversed here first.
 */
export function textRuns(text: string, fonts: FontSet): Run[][] {
  return inertBidiControls(text)
    .replace(/\t/g, ' ')
    .split(/\r\n|\r|\n/)
    .map((paragraph) => paragraphRuns(paragraph, fonts));
}

function paragraphRuns(paragraph: string, fonts: FontSet): Run[] {
  // Each character with its bidi level (left to right, the documents' own direction) and font.
  const { levels } = bidi.getEmbeddingLevels(paragraph, 'ltr');
  const chars: Array<{ text: string; level: number; face: Face }> = [];
  let index = 0;
  let previous: Face | null = null;
  for (const char of paragraph) {
    const level = levels[index] ?? 0;
    index += char.length;
    let text = level % 2 === 1 ? (bidi.getMirroredCharacter(char) ?? char) : char;
    const codePoint = text.codePointAt(0)!;
    let face: Face | null = previous && isContinuation(text, codePoint) && previous.font.hasGlyphForCodePoint(codePoint) ? previous : fonts.faceFor(codePoint);
    if (!face) {
      if (INVISIBLE.test(text)) continue;
      text = '\uFFFD';
      face = fonts.fallback;
    }
    chars.push({ text, level, face });
    previous = face;
  }
  // Spaces at the end of a line are at the paragraph's level (rule L1).
  for (let i = chars.length - 1; i >= 0 && SPACE.test(chars[i]!.text); i--) chars[i]!.level = 0;

  // Runs of one level, reordered (rule L2): from the highest level to the lowest odd one, each
  // sequence of runs at that level or higher is reversed.
  const levelRuns: Array<{ level: number; chars: typeof chars }> = [];
  for (const char of chars) {
    const last = levelRuns.at(-1);
    if (last?.level === char.level) last.chars.push(char);
    else levelRuns.push({ level: char.level, chars: [char] });
  }
  const oddLevels = levelRuns.map((run) => run.level).filter((level) => level % 2 === 1);
  if (oddLevels.length > 0) {
    const lowestOdd = Math.min(...oddLevels);
    for (let level = Math.max(...levelRuns.map((run) => run.level)); level >= lowestOdd; level--) {
      for (let start = 0; start < levelRuns.length; start++) {
        if (levelRuns[start]!.level < level) continue;
        let end = start;
        while (end + 1 < levelRuns.length && levelRuns[end + 1]!.level >= level) end++;
        levelRuns.splice(start, end - start + 1, ...levelRuns.slice(start, end + 1).reverse());
        start = end;
      }
    }
  }

  const runs: Run[] = [];
  const add = (text: string, face: Face) => {
    const last = runs.at(-1);
    // Parts fontkit lays out left to right join up; a right-to-left one stays whole on its own.
    if (last && last.face === face && !fontkitLaysOutRtl(last.text) && !fontkitLaysOutRtl(text)) last.text += text;
    else runs.push({ text, face });
  };
  for (const levelRun of levelRuns) {
    const rtl = levelRun.level % 2 === 1;
    // The characters in runs of one font, in the order they were written.
    const parts: Run[] = [];
    for (const char of levelRun.chars) {
      const last = parts.at(-1);
      if (last?.face === char.face) last.text += char.text;
      else parts.push({ text: char.text, face: char.face });
    }
    if (!rtl) {
      for (const part of parts) {
        // Left to right but in a right-to-left script (Arabic-Indic digits): reversed here, so
        // that fontkit's reversal puts it back.
        if (!fontkitLaysOutRtl(part.text)) add(part.text, part.face);
        else for (const word of words(part.text)) add(fontkitLaysOutRtl(word) ? reversed(word) : word, part.face);
      }
    } else {
      // Right to left: the words from last to first, each reversed by fontkit if it is in a
      // right-to-left script, else here (spaces, punctuation, emoji).
      const tokens = parts.flatMap((part) => words(part.text).map((word) => ({ text: word, face: part.face })));
      for (const token of tokens.reverse()) add(fontkitLaysOutRtl(token.text) ? token.text : reversed(token.text), token.face);
    }
  }
  return runs;
}
