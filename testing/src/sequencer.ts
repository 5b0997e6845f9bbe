// The order in which the suite starts its files (vitest.config.ts, sequence.sequencer): longest
// first, whatever the project, so that the two workers end together instead of one finishing a
// long file alone at the end. vitest's own order runs the projects one after the other and, on a
// fresh clone (no results cache), the files by size, which put the slowest files (a real
// `npm start`, the axe pass over every screen) late. A file that failed last time still goes first.

import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each slow file took in a full run (two workers, a loaded machine: only the order
 * matters). Files not listed are estimated from their size; vitest's results cache, when there
 * is one, is preferred to both.
 */
export const MEASURED_SECONDS: Readonly<Record<string, number>> = {
  'console/test/accessibility.e2e.test.ts': 149,
  'ops/test/embedded.int.test.ts': 121,
  'api/test/generative.api.test.ts': 67,
  'api/test/list-sorting.api.test.ts': 58,
  'api/test/invoices.api.test.ts': 55,
  'console/test/units.e2e.test.ts': 52,
  'ops/test/cluster-local.int.test.ts': 50,
  'console/test/billing-engine.e2e.test.ts': 46,
  'api/test/sessions.api.test.ts': 44,
  'console/test/leases.e2e.test.ts': 42,
  'ops/test/staff-create.int.test.ts': 41,
  'console/test/dashboard.e2e.test.ts': 41,
  'console/test/locks.e2e.test.ts': 39,
  'console/test/staff-management.e2e.test.ts': 38,
  'console/test/customer-page.e2e.test.ts': 36,
  'console/test/settings.e2e.test.ts': 35,
  'api/test/route-spellings.api.test.ts': 35,
  'projector/test/crash.int.test.ts': 33,
  'console/test/list-views.e2e.test.ts': 33,
  'console/test/billing.e2e.test.ts': 32,
  'console/test/search.e2e.test.ts': 32,
  'console/test/read-model.e2e.test.ts': 31,
  'ops/test/config.int.test.ts': 31,
  'api/test/leases.api.test.ts': 31,
  'projector/test/rebuild.int.test.ts': 31,
  'console/test/activities.e2e.test.ts': 27,
  'api/test/payments.api.test.ts': 26,
  'portal/test/checkout.e2e.test.ts': 26,
  'console/test/reports.e2e.test.ts': 25,
  'console/test/customers.e2e.test.ts': 24,
  'console/test/statement.e2e.test.ts': 23,
  'api/test/settings.api.test.ts': 23,
  'console/test/desk-payments.e2e.test.ts': 22,
  'api/test/audit-log.api.test.ts': 21,
  'ops/test/verify.int.test.ts': 20,
  'console/test/audit.e2e.test.ts': 20,
  'projector/test/failing-projection.int.test.ts': 18,
  'projector/test/metrics.int.test.ts': 17,
  'api/test/reservations.api.test.ts': 17,
  'api/test/idempotency.api.test.ts': 16,
  'console/test/sign-out.e2e.test.ts': 16,
  'api/test/staff.api.test.ts': 16,
  'api/test/event-versioning.api.test.ts': 15,
  'portal/test/rent-now.e2e.test.ts': 13,
  'portal/test/customer-portal.e2e.test.ts': 13,
  'api/test/units.api.test.ts': 12,
  'api/test/locks.api.test.ts': 12,
  'api/test/workflows.api.test.ts': 11,
  'api/test/customers.api.test.ts': 11,
  'api/test/customer-page.api.test.ts': 10,
  'api/test/secrets.api.test.ts': 9,
  'api/test/notifications.api.test.ts': 8,
  'api/test/health.api.test.ts': 8,
  'portal/test/statement.e2e.test.ts': 8,
  'api/test/history.api.test.ts': 8,
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
