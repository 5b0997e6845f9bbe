import type * as fontkit from 'fontkit';

// A variable TrueType font as a static font at one weight. fontkit computes each glyph's outline
// and advance at any weight, but its PDF subset cannot write them (fontkit 2.0.4 passes a number
// where restructure 3 wants a buffer, and throws): PDFKit embeds a static font fine. So the glyphs
// are written here, at the weight asked for, each as a simple glyph (a composite's parts merged),
// without hinting instructions (the Noto variable fonts have none), and the tables that made the
// font variable are left out. Other tables are copied as they are: positioning (GPOS: kerning,
// the marks of Arabic) keeps the default weight's values, a point or two off at another weight.

const VARIATION_TABLES = new Set(['fvar', 'gvar', 'avar', 'cvar', 'HVAR', 'VVAR', 'MVAR', 'STAT']);
const ON_CURVE = 0x01;

interface Point {
  x: number;
  y: number;
  on: boolean;
}

/** The glyph's outline as TrueType contours (quadratic curves, points on and off the curve). */
function contoursOf(path: fontkit.Path): Point[][] {
  const contours: Point[][] = [];
  let contour: Point[] = [];
  const close = () => {
    const first = contour[0];
    const last = contour.at(-1);
    if (contour.length > 1 && first && last?.on && Math.round(last.x) === Math.round(first.x) && Math.round(last.y) === Math.round(first.y)) contour.pop();
    if (contour.length > 0) contours.push(contour);
    contour = [];
  };
  for (const { command, args } of path.commands) {
    if (command === 'moveTo') {
      close();
      contour.push({ x: args[0]!, y: args[1]!, on: true });
    } else if (command === 'lineTo') {
      contour.push({ x: args[0]!, y: args[1]!, on: true });
    } else if (command === 'quadraticCurveTo') {
      contour.push({ x: args[0]!, y: args[1]!, on: false }, { x: args[2]!, y: args[3]!, on: true });
    } else if (command === 'bezierCurveTo') {
      // TrueType outlines have no cubic curves; kept as a line should one appear.
      contour.push({ x: args[4]!, y: args[5]!, on: true });
    } else if (command === 'closePath') {
      close();
    }
  }
  close();
  return contours.map((points) => points.map((point) => ({ x: Math.round(point.x), y: Math.round(point.y), on: point.on })));
}

/** A 'glyf' table entry for these contours (empty for a glyph with none), padded to 4 bytes. */
function glyphData(contours: Point[][]): Buffer {
  const points = contours.flat();
  if (points.length === 0) return Buffer.alloc(0);
  const size = 10 + 2 * contours.length + 2 + points.length * 5;
  const data = Buffer.alloc(size + ((4 - (size % 4)) % 4));
  data.writeInt16BE(contours.length, 0);
  data.writeInt16BE(Math.min(...points.map((p) => p.x)), 2);
  data.writeInt16BE(Math.min(...points.map((p) => p.y)), 4);
  data.writeInt16BE(Math.max(...points.map((p) => p.x)), 6);
  data.writeInt16BE(Math.max(...points.map((p) => p.y)), 8);
  let at = 10;
  let end = -1;
  for (const contour of contours) {
    end += contour.length;
    data.writeUInt16BE(end, at);
    at += 2;
  }
  data.writeUInt16BE(0, at); // no instructions
  at += 2;
  for (const point of points) data.writeUInt8(point.on ? ON_CURVE : 0, at++);
  // Every coordinate as a 16-bit step from the one before (no flag for short or repeated values).
  let previous = 0;
  for (const point of points) {
    data.writeInt16BE(point.x - previous, at);
    previous = point.x;
    at += 2;
  }
  previous = 0;
  for (const point of points) {
    data.writeInt16BE(point.y - previous, at);
    previous = point.y;
    at += 2;
  }
  return data;
}

const checksum = (table: Buffer) => {
  const padded = Buffer.concat([table, Buffer.alloc((4 - (table.length % 4)) % 4)]);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + padded.readUInt32BE(at)) >>> 0;
  return sum;
};

/**
 * `sfnt` (a variable TrueType font's file, which `font` is read from) as a static font at `weight`
 * on its wght axis.
 */
export function staticInstance(sfnt: Buffer, font: fontkit.Font, weight: number): Buffer {
  const instance = font.getVariation({ wght: weight });
  const glyf: Buffer[] = [];
  const loca = Buffer.alloc(4 * (font.numGlyphs + 1));
  const hmtx = Buffer.alloc(4 * font.numGlyphs);
  let offset = 0;
  let maxPoints = 0;
  let maxContours = 0;
  for (let id = 0; id < font.numGlyphs; id++) {
    const glyph = instance.getGlyph(id);
    const contours = contoursOf(glyph.path);
    maxPoints = Math.max(maxPoints, contours.flat().length);
    maxContours = Math.max(maxContours, contours.length);
    const data = glyphData(contours);
    loca.writeUInt32BE(offset, 4 * id);
    glyf.push(data);
    offset += data.length;
    hmtx.writeUInt16BE(Math.max(0, Math.round(glyph.advanceWidth)), 4 * id);
    hmtx.writeInt16BE(data.length > 0 ? data.readInt16BE(2) : 0, 4 * id + 2);
  }
  loca.writeUInt32BE(offset, 4 * font.numGlyphs);

  // The other tables as they are, but for the offsets of the glyphs (now 32-bit), the number of
  // advances (now one per glyph) and the largest glyph (a composite's parts are now its own).
  const tables = new Map<string, Buffer>();
  const count = sfnt.readUInt16BE(4);
  for (let record = 12; record < 12 + 16 * count; record += 16) {
    const tag = sfnt.toString('latin1', record, record + 4);
    if (VARIATION_TABLES.has(tag)) continue;
    const start = sfnt.readUInt32BE(record + 8);
    tables.set(tag, Buffer.from(sfnt.subarray(start, start + sfnt.readUInt32BE(record + 12))));
  }
  tables.set('glyf', Buffer.concat(glyf));
  tables.set('loca', loca);
  tables.set('hmtx', hmtx);
  tables.get('head')!.writeInt16BE(1, 50);
  tables.get('hhea')!.writeUInt16BE(font.numGlyphs, 34);
  const maxp = tables.get('maxp')!;
  if (maxp.readUInt32BE(0) === 0x00010000) {
    maxp.writeUInt16BE(Math.max(maxp.readUInt16BE(6), maxPoints), 6);
    maxp.writeUInt16BE(Math.max(maxp.readUInt16BE(8), maxContours), 8);
  }

  const tags = [...tables.keys()].sort();
  const searchRange = 16 * 2 ** Math.floor(Math.log2(tags.length));
  const header = Buffer.alloc(12 + 16 * tags.length);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tags.length, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(Math.floor(Math.log2(tags.length)), 8);
  header.writeUInt16BE(16 * tags.length - searchRange, 10);
  const bodies: Buffer[] = [];
  let at = header.length;
  tags.forEach((tag, index) => {
    const table = tables.get(tag)!;
    const record = 12 + 16 * index;
    header.write(tag, record, 'latin1');
    header.writeUInt32BE(checksum(table), record + 4);
    header.writeUInt32BE(at, record + 8);
    header.writeUInt32BE(table.length, record + 12);
    const padded = Buffer.concat([table, Buffer.alloc((4 - (table.length % 4)) % 4)]);
    bodies.push(padded);
    at += padded.length;
  });
  return Buffer.concat([header, ...bodies]);
}
