import type { ReactNode } from 'react';

/**
 * A wide table that scrolls sideways on a phone, inside a named region that takes keyboard focus,
 * so it can be scrolled without a mouse even when its rows hold nothing focusable
 * (axe: scrollable-region-focusable). The table itself gets no `scroll`, so the page never does.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
    <section className="scroll-region" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
