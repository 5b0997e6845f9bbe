import { SIGNATURE_MARK_MAX } from '@storage/contracts/lease-signatures';

// A drawn signature as both apps send it: the strokes of a pad, as one SVG path ("M x y L x y …"),
// in the pad's own pixels, a tenth of a pixel at most, so a signature stays a few kilobytes.

export type Point = { x: number; y: number };

const round = (n: number) => Math.round(n * 10) / 10;

/** The strokes as one SVG path; null for no stroke. A single tap is a dot (a zero-length line). */
export function strokesToSvgPath(strokes: readonly (readonly Point[])[]): string | null {
  const parts: string[] = [];
  for (const stroke of strokes) {
    if (stroke.length === 0) continue;
    const [first, ...rest] = stroke;
    const line = rest.length > 0 ? rest : [first!];
    parts.push(`M ${round(first!.x)} ${round(first!.y)} ${line.map((p) => `L ${round(p.x)} ${round(p.y)}`).join(' ')}`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

/** Whether the mark fits what the server keeps. */
export function markFits(path: string): boolean {
  return path.length <= SIGNATURE_MARK_MAX;
}
