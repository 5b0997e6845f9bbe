import { type Point, strokesToSvgPath } from '@storage/web-client/signature-path';
import { type PointerEvent, useRef, useState } from 'react';

const WIDTH = 560;
const HEIGHT = 160;

/** Where the renter draws their signature with a finger, pen or mouse; `onChange` gets it as an SVG path (null: nothing drawn). */
export function SignaturePad({ onChange }: { onChange: (path: string | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Point[][]>([]);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);

  const pointOf = (event: PointerEvent<HTMLCanvasElement>): Point => {
    const box = event.currentTarget.getBoundingClientRect();
    // On a phone the pad is drawn narrower than its pixels: points are in its own pixels.
    return {
      x: (event.clientX - box.left) * (box.width > 0 ? WIDTH / box.width : 1),
      y: (event.clientY - box.top) * (box.height > 0 ? HEIGHT / box.height : 1),
    };
  };
  const drawTo = (from: Point, to: Point) => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    context.lineWidth = 2;
    context.lineCap = 'round';
    context.strokeStyle = '#0f172a';
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
  };
  const start = (event: PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drawing.current = true;
    const point = pointOf(event);
    strokes.current.push([point]);
    drawTo(point, point);
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const stroke = strokes.current.at(-1)!;
    const point = pointOf(event);
    drawTo(stroke.at(-1)!, point);
    stroke.push(point);
  };
  const end = () => {
    if (!drawing.current) return;
    drawing.current = false;
    setEmpty(false);
    onChange(strokesToSvgPath(strokes.current));
  };
  const clear = () => {
    strokes.current = [];
    canvas.current?.getContext('2d')?.clearRect(0, 0, WIDTH, HEIGHT);
    setEmpty(true);
    onChange(null);
  };

  return (
    <div style={{ display: 'grid', gap: 6 }}>
      <canvas
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label="Signature pad: draw your signature"
        data-testid="signature-pad"
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerLeave={end}
        onPointerCancel={end}
        style={{ width: '100%', aspectRatio: `${WIDTH} / ${HEIGHT}`, border: '1px solid #cbd5e1', borderRadius: 8, touchAction: 'none', background: '#fff' }}
      />
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <span className="portal-muted">{empty ? 'Draw your signature above.' : 'Signature drawn.'}</span>
        <button type="button" className="button button-secondary" onClick={clear} disabled={empty}>
          Clear
        </button>
      </div>
    </div>
  );
}
