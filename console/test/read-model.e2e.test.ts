import type { ReadModelJob, ReadModelJobKind } from '@storage/contracts/read-model';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import pg from 'pg';
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signedInContext } from './staff-browser.ts';

// The Settings screen's Read model card in a real browser: the owner verifies the read tables
// against a rebuild from the event history and rebuilds them (the projector runs each as a
// BullMQ job and the card follows its progress); a read row changed behind the projector's back
// shows up as a difference, and a rebuild repairs it. That other roles get neither the card nor the
// API behind it is shown by console/test/components/read-model-card.component.test.tsx and
// projector/test/rebuild.int.test.ts.

// A browser journey with two or three jobs on the shared PostgreSQL; a loaded machine needs time.
const JOURNEY_TIMEOUT_MS = 120_000;
/** How long a verify or rebuild of the demo history may take on a loaded machine. */
const JOB_TIMEOUT_MS = 60_000;

describe('Read model card in Chromium', () => {
  let product: ProductUnderTest;
  let db: pg.Client;

  beforeAll(async () => {
    product = await startProductUnderTest({ seedDemo: true });
    db = new pg.Client({ connectionString: product.platform.database.url });
    await db.connect();
  }, 180_000);
  afterAll(async () => {
    await db?.end();
    await product?.close();
  });

  async function eventCount(): Promise<number> {
    const { rows } = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM event_store.events');
    return rows[0]!.count;
  }

  /** The number in "… from 1,234 events", as the card printed it. */
  function eventsIn(text: string, pattern: RegExp): number {
    const match = pattern.exec(text.trim());
    if (!match) throw new Error(`"${text}" does not match ${pattern}`);
    return Number(match[1]!.replaceAll(',', ''));
  }

  async function openCard(page: Page): Promise<Locator> {
    await page.goto(`${product.baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const card = page.getByTestId('read-model-card');
    await card.waitFor();
    expect(await card.locator('.ant-card-head-title').textContent()).toBe('Read model');
    return card;
  }

  const MATCHES = /^The read model matches a rebuild from ([\d,]+) events$/;
  const REBUILT = /^Read model rebuilt from ([\d,]+) events$/;

  /**
   * Starts a job with `click` and returns a wait for its end, which gives the card's final alert.
   * The end is told by the job's own progress answers (the card keeps the previous job's alert
   * until the new job is started, so the alert alone cannot tell which job it is about).
   */
  async function startJob(page: Page, card: Locator, kind: ReadModelJobKind, click: () => Promise<void>): Promise<() => Promise<Locator>> {
    const states = new Map<string, string>();
    const onResponse = async (response: Response) => {
      const id = /^\/api\/read-model\/jobs\/(\d+)$/.exec(new URL(response.url()).pathname)?.[1];
      if (id && response.ok()) states.set(id, ((await response.json()) as ReadModelJob).state);
    };
    page.on('response', onResponse);
    const posted = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/read-model/${kind}`);
    await click();
    const response = await posted;
    expect(response.status()).toBe(202);
    const started = (await response.json()) as ReadModelJob;
    expect(started.kind).toBe(kind);
    return async () => {
      try {
        await expect.poll(() => states.get(started.id), { timeout: JOB_TIMEOUT_MS, interval: 200 }).toMatch(/^(completed|failed)$/);
      } finally {
        page.off('response', onResponse);
      }
      const finished = card.locator('.ant-alert-success, .ant-alert-warning, .ant-alert-error');
      await finished.waitFor();
      expect(await finished.count()).toBe(1);
      return finished;
    };
  }

  function startVerify(page: Page, card: Locator) {
    return startJob(page, card, 'verify', () => card.getByRole('button', { name: 'Verify' }).click());
  }

  async function verify(page: Page, card: Locator): Promise<Locator> {
    return (await startVerify(page, card))();
  }

  function startRebuild(page: Page, card: Locator) {
    return startJob(page, card, 'rebuild', async () => {
      await card.getByRole('button', { name: 'Rebuild' }).click();
      const confirm = page.locator('.ant-popconfirm').filter({ hasText: 'Rebuild the read model from the full history?' });
      await confirm.waitFor();
      await confirm.getByRole('button', { name: 'OK' }).click();
    });
  }

  async function rebuild(page: Page, card: Locator): Promise<Locator> {
    return (await startRebuild(page, card))();
  }

  it(
    'verifies the read model against a rebuild and rebuilds it, showing the job while it runs',
    async () => {
      const context = await signedInContext(product, DESKTOP);
      const page = await context.newPage();
      const card = await openCard(page);
      expect(await card.textContent()).toContain('Verify compares them with a fresh rebuild, row by row');
      const verifyButton = card.getByRole('button', { name: 'Verify' });
      const rebuildButton = card.getByRole('button', { name: 'Rebuild' });
      expect(await verifyButton.isEnabled()).toBe(true);
      expect(await rebuildButton.isEnabled()).toBe(true);

      const before = await eventCount();
      expect(before).toBeGreaterThan(0);
      const verified = await verify(page, card);
      const verifiedText = (await verified.textContent()) ?? '';
      expect(await verified.getAttribute('class')).toContain('ant-alert-success');
      const verifiedEvents = eventsIn(verifiedText, MATCHES);
      expect(verifiedEvents).toBeGreaterThanOrEqual(before);
      expect(verifiedEvents).toBeLessThanOrEqual(await eventCount());
      expect(await card.getByTestId('read-model-differences').count()).toBe(0);
      expect(await verifyButton.isEnabled()).toBe(true);

      // While something else holds the rebuild lock, the job fails and the card says why.
      const blocker = new pg.Client({ connectionString: product.platform.database.url });
      await blocker.connect();
      try {
        const { rows } = await blocker.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext('read-model-rebuild')) AS locked");
        expect(rows[0]!.locked).toBe(true);
        const failed = await verify(page, card);
        expect(await failed.getAttribute('class')).toContain('ant-alert-error');
        expect(await failed.textContent()).toBe('Verification failed: Another rebuild or verification of the read model is running');
        expect(await verifyButton.isEnabled()).toBe(true);
      } finally {
        await blocker.end();
      }

      // Hold the live customers table so the rebuild stops while copying it: the job is then
      // running (and the card must say so) for as long as the test keeps the lock.
      let finishRebuild: (() => Promise<Locator>) | undefined;
      const locker = new pg.Client({ connectionString: product.platform.database.url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE public.customers IN ACCESS EXCLUSIVE MODE');
        finishRebuild = await startRebuild(page, card);
        await card.getByText(/^Rebuild running: 0 events applied$/).waitFor({ timeout: JOB_TIMEOUT_MS });
        expect(await card.locator('.ant-alert-info').count()).toBe(1);
        expect(await verifyButton.isDisabled()).toBe(true);
        expect(await rebuildButton.isDisabled()).toBe(true);
        await locker.query('COMMIT');
      } finally {
        await locker.end();
      }

      const rebuilt = await finishRebuild!();
      expect(await rebuilt.getAttribute('class')).toContain('ant-alert-success');
      const rebuiltEvents = eventsIn((await rebuilt.textContent()) ?? '', REBUILT);
      expect(rebuiltEvents).toBeGreaterThan(0);
      expect(rebuiltEvents).toBeGreaterThanOrEqual(before);
      expect(rebuiltEvents).toBeLessThanOrEqual(await eventCount());
      expect(await card.locator('.ant-alert-info').count()).toBe(0);
      expect(await verifyButton.isEnabled()).toBe(true);
      expect(await rebuildButton.isEnabled()).toBe(true);

      // The screens read the swapped-in tables.
      await page.goto(`${product.baseUrl}/customers`);
      await page.getByRole('heading', { name: 'Customers' }).waitFor();
      await page.getByTestId('customer-card').first().waitFor();
      await context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'reports a read row changed behind the projector, and a rebuild puts it back',
    async () => {
      const { rows } = await db.query<{ id: string; first_name: string }>(
        `WITH target AS (SELECT id, first_name FROM customers WHERE NOT archived ORDER BY created_at, id LIMIT 1 FOR UPDATE)
       UPDATE customers SET first_name = 'Tampered' FROM target WHERE customers.id = target.id
       RETURNING customers.id, target.first_name`,
      );
      expect(rows).toHaveLength(1);
      const { id, first_name: original } = rows[0]!;
      expect(original).not.toBe('Tampered');

      const context = await signedInContext(product, DESKTOP);
      const page = await context.newPage();
      const card = await openCard(page);
      const result = await verify(page, card);
      expect(await result.getAttribute('class')).toContain('ant-alert-warning');
      expect(await result.locator('.ant-alert-title').textContent()).toBe('1 difference from a rebuild');
      const differences = card.getByTestId('read-model-differences').locator('li');
      expect(await differences.allTextContents()).toEqual([`customers (id=${id}): first_name: live "Tampered", rebuilt ${JSON.stringify(original)}`]);

      // Nothing in the card spills out of it or out of the page.
      const overflow = await card.evaluate((el) => {
        const list = el.querySelector('[data-testid="read-model-differences"]')!;
        const cardBox = el.getBoundingClientRect();
        const listBox = list.getBoundingClientRect();
        return {
          listWider: list.scrollWidth - list.clientWidth,
          outsideCard: listBox.right - cardBox.right,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      expect(overflow.listWider).toBeLessThanOrEqual(0);
      expect(overflow.outsideCard).toBeLessThanOrEqual(0);
      expect(overflow.page).toBe(0);
      const dir = process.env.SCREENSHOT_DIR;
      if (dir) await card.screenshot({ path: `${dir}/read-model-card.png` });

      const rebuilt = await rebuild(page, card);
      expect(await rebuilt.getAttribute('class')).toContain('ant-alert-success');
      expect(eventsIn((await rebuilt.textContent()) ?? '', REBUILT)).toBeGreaterThan(0);
      const repaired = await db.query<{ first_name: string }>('SELECT first_name FROM customers WHERE id = $1', [id]);
      expect(repaired.rows[0]?.first_name).toBe(original);

      const again = await verify(page, card);
      expect(await again.getAttribute('class')).toContain('ant-alert-success');
      eventsIn((await again.textContent()) ?? '', MATCHES);
      expect(await card.getByTestId('read-model-differences').count()).toBe(0);
      await context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
