import { inflateSync } from 'node:zlib';

// The text a PDF draws, read back from the file: each page's shown glyphs through its fonts'
// ToUnicode maps (the API embeds subset fonts, so the bytes never hold the text as written).

function objectsOf(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const objects = new Map<string, { dict: string; stream: Buffer | null }>();
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

/** Each page's text, in the order drawn (lines run together). */
export function pdfPagesText(pdf: Buffer): string[] {
  const { text, objects } = objectsOf(pdf);
  const unicodeOf = new Map<string, Map<number, string>>();
  for (const [, resource, id] of text.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    if (unicodeOf.has(resource!)) continue;
    const font = objects.get(id!)!.dict;
    const cmapId = /\/ToUnicode (\d+) 0 R/.exec(font)?.[1];
    const unicode = new Map<number, string>();
    const cmap = cmapId ? objects.get(cmapId)!.stream!.toString('latin1') : '';
    const utf16 = (hex: string) => String.fromCharCode(...(hex.replace(/\s/g, '').match(/.{4}/g) ?? []).map((unit) => Number.parseInt(unit, 16)));
    for (const [, first, list] of cmap.matchAll(/<([0-9a-f]{4})> <[0-9a-f]{4}> \[([^\]]*)\]/g)) {
      let glyph = Number.parseInt(first!, 16);
      for (const [, hex] of list!.matchAll(/<([0-9a-f\s]+)>/g)) unicode.set(glyph++, utf16(hex!));
    }
    unicodeOf.set(resource!, unicode);
  }
  return [...text.matchAll(/\/Contents (\d+) 0 R/g)].map(([, id]) => {
    const contents = objects.get(id!)!.stream!.toString('latin1');
    let unicode: Map<number, string> | undefined;
    let out = '';
    for (const [, resource, strings] of contents.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
      if (resource) unicode = unicodeOf.get(resource);
      else
        for (const [, hex] of strings!.matchAll(/<([0-9a-f]+)>/g))
          for (const unit of hex!.match(/.{4}/g) ?? []) out += unicode?.get(Number.parseInt(unit, 16)) ?? '';
    }
    return out;
  });
}
