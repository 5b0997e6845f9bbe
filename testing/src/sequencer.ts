// The order in which the suite starts its files (vitest.config.ts, sequence.sequencer): longest
// first, whatever the project, so that the two workers end together instead of one finishing a
// long file alone at the end. vitest's own order runs the projects one after the other and, on a
// fresh clone (no results cache), the files by size, which put the slowest files (a real
// `npm start`, the axe pass over every screen) late. A file that failed last time still goes first.

import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file of 8 s or more took in a full run (the fresh-clone run of 25 November 2026, two
 * workers: only the order matters). Files not listed are estimated from their size; vitest's
 * results cache, when there is one, is preferred to both.
 */
export const MEASURED_SECONDS: Readonly<Record<string, number>> = {
  'console/test/accessibility.e2e.test.ts': 109,
  'console/test/units.e2e.test.ts': 45,
  // Measured alone (the benchmarks' smoke runs), not in a full run: 37 s quiet, 45 s loaded.
  'ops/test/benchmarks.int.test.ts': 45,
  // Measured alone (first start and its failures, several embedded clusters).
  'ops/test/first-start.int.test.ts': 22,
  'console/test/billing-engine.e2e.test.ts': 40,
  'ops/test/embedded.int.test.ts': 31,
  'api/test/messages.api.test.ts': 31,
  'console/test/locks.e2e.test.ts': 30,
  'console/test/customer-page.e2e.test.ts': 29,
  'console/test/list-views.e2e.test.ts': 29,
  'console/test/billing.e2e.test.ts': 29,
  'console/test/dashboard.e2e.test.ts': 27,
  'console/test/settings.e2e.test.ts': 26,
  'console/test/leases.e2e.test.ts': 26,
  'console/test/read-model.e2e.test.ts': 24,
  'api/test/invoices.api.test.ts': 22,
  'console/test/rent-changes.e2e.test.ts': 21,
  'console/test/desk-payments.e2e.test.ts': 21,
  'portal/test/checkout.e2e.test.ts': 18,
  'ops/test/backup-restore.int.test.ts': 16,
  'console/test/lockout-journey.e2e.test.ts': 15,
  'console/test/staff-management.e2e.test.ts': 15,
  'api/test/list-sorting.api.test.ts': 14,
  'projector/test/rebuild.int.test.ts': 14,
  'api/test/generative.api.test.ts': 14,
  'console/test/customers.e2e.test.ts': 14,
  'portal/test/customer-portal.e2e.test.ts': 14,
  'console/test/delinquency.e2e.test.ts': 13,
  'console/test/reports.e2e.test.ts': 13,
  'ops/test/demo-seed.int.test.ts': 13,
  'console/test/search.e2e.test.ts': 11,
  'api/test/payments.api.test.ts': 11,
  'console/test/activities.e2e.test.ts': 11,
  'ops/test/verify.int.test.ts': 11,
  'portal/test/rent-now.e2e.test.ts': 11,
  'console/test/messages.e2e.test.ts': 10,
  'console/test/audit.e2e.test.ts': 9,
  'console/test/refunds.e2e.test.ts': 9,
  'console/test/lock-access.e2e.test.ts': 9,
  'api/test/route-spellings.api.test.ts': 9,
  'console/test/sign-out.e2e.test.ts': 8,
  '': 0,
};

/** A file not measured: about a second per kilobyte of test, browser tests three times that. */
function estimateMs(file: string, bytes: number): number {
  return bytes * (file.endsWith('.e2e.test.ts') ? 3 : 1);
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const expected = new Map<TestSpecification, { failed: boolean; ms: number }>();
    await Promise.all(
      files.map(async (spec) => {
        const cached = cache.getTestSpecificationResult(spec);
        const file = relative(root, spec.moduleId);
        const measured = MEASURED_SECONDS[file];
        const ms = cached?.duration ?? (measured !== undefined ? measured * 1000 : estimateMs(file, (await stat(spec.moduleId)).size));
        expected.set(spec, { failed: Boolean(cached?.failed), ms });
      }),
    );
    return [...files].sort((a, b) => {
      const x = expected.get(a)!;
      const y = expected.get(b)!;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms;
    });
  }
}
