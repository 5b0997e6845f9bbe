import { SIGNATURE_MARK_MAX, SignatureMark } from '@storage/contracts/lease-signatures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markFits, strokesToSvgPath } from './signature-path.ts';

describe('a drawn signature as an SVG path', () => {
  it('writes each stroke as a move and its lines, rounded to a tenth of a pixel', () => {
    expect(
      strokesToSvgPath([
        [
          { x: 1.04, y: 2 },
          { x: 3.46, y: 4 },
        ],
        [{ x: 5, y: 6 }],
      ]),
    ).toBe('M 1 2 L 3.5 4 M 5 6 L 5 6');
    expect(strokesToSvgPath([])).toBeNull();
    expect(strokesToSvgPath([[]])).toBeNull();
  });

  it('is always a mark the server takes, when it fits', () => {
    const point = fc.record({ x: fc.double({ min: -1000, max: 1000, noNaN: true }), y: fc.double({ min: -1000, max: 1000, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(fc.array(point, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 10 }), (strokes) => {
        const path = strokesToSvgPath(strokes)!;
        expect(SignatureMark.safeParse(path).success).toBe(markFits(path));
      }),
    );
    expect(markFits('M 0 0 '.padEnd(SIGNATURE_MARK_MAX + 1, '0'))).toBe(false);
  });
});
