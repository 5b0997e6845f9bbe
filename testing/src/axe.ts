// Accessibility checks for the browser tests: axe-core's source is injected into the page and run
// with the WCAG 2.x A/AA rules; a test fails listing each serious or critical violation.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { animationsDone } from './animations.ts';

const require = createRequire(import.meta.url);
// Evaluated through the DevTools protocol rather than added as a <script>: the product's
// Content-Security-Policy (script-src 'self') rightly refuses inline scripts.
const AXE_SOURCE = `${readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')}\n;undefined`;

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export type AxeViolation = Pick<Result, 'id' | 'impact' | 'help' | 'helpUrl'> & {
  targets: string[];
  summaries: string[];
};

/** Runs axe-core on `page` (or on the part `include` selects) and returns every WCAG A/AA violation. */
export async function axeViolations(page: Page, options: { include?: string } = {}): Promise<AxeViolation[]> {
  // Colours are measured as they stand: a dialog still fading in once measured its submit button at
  // 3.8:1 against the 4.5:1 it has when shown. So the finite animations and transitions running
  // (a dialog's zoom, a button's colour) end first; endless ones (a loading shimmer) are not waited for.
  await animationsDone(page);
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ tags, include }) => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } }).axe;
      return axe.run(include ? { include: [include] } : document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    },
    { tags: WCAG_TAGS, include: options.include },
  );
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    summaries: v.nodes.map((n) => n.failureSummary ?? ''),
  }));
}

/** The serious and critical violations, one readable line per rule and node. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.targets.map((t, i) => `    ${t}\n      ${v.summaries[i]?.replaceAll('\n', '\n      ')}`).join('\n')}`)
    .join('\n');
}

/** Fails when axe-core finds a serious or critical WCAG A/AA violation on `page`, listing each. */
export async function expectAccessible(page: Page, name: string, options: { include?: string } = {}): Promise<void> {
  const serious = (await axeViolations(page, options)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length > 0) throw new Error(`${name}: ${serious.length} serious/critical accessibility violation(s)\n${describeViolations(serious)}`);
}
