import { type Point, strokesToSvgPath } from '@storage/web-client/signature-path';
import { Button, Flex, Typography } from 'antd';
import { type PointerEvent, useRef, useState } from 'react';

const WIDTH = 560;
const HEIGHT = 160;

/**
 * A pad the renter draws their mark on with a finger, pen or mouse: a plain canvas with pointer
 * events, handed out as an SVG path (null: nothing drawn). Clear starts over.
 */
/** `onChange`: a form item's, which hands it in. */
export function SignaturePad({ onChange, disabled = false }: { onChange?: (path: string | null) => void; disabled?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Point[][]>([]);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);

  const pointOf = (event: PointerEvent<HTMLCanvasElement>): Point => {
    const box = event.currentTarget.getBoundingClientRect();
    // The canvas may be drawn narrower than its pixels (a phone): points are in its own pixels.
    const scaleX = box.width > 0 ? WIDTH / box.width : 1;
    const scaleY = box.height > 0 ? HEIGHT / box.height : 1;
    return { x: (event.clientX - box.left) * scaleX, y: (event.clientY - box.top) * scaleY };
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
    if (disabled) return;
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
    onChange?.(strokesToSvgPath(strokes.current));
  };
  const clear = () => {
    strokes.current = [];
    canvas.current?.getContext('2d')?.clearRect(0, 0, WIDTH, HEIGHT);
    setEmpty(true);
    onChange?.(null);
  };

  return (
    <Flex vertical gap={4}>
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
        style={{
          width: '100%',
          maxWidth: WIDTH,
          aspectRatio: `${WIDTH} / ${HEIGHT}`,
          border: '1px solid #cbd5e1',
          borderRadius: 6,
          touchAction: 'none',
          background: '#fff',
        }}
      />
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary">{empty ? 'Draw your signature above.' : 'Signature drawn.'}</Typography.Text>
        <Button size="small" onClick={clear} disabled={disabled || empty}>
          Clear
        </Button>
      </Flex>
    </Flex>
  );
}
