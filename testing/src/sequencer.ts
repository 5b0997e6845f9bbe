// The order in which the suite starts its files (vitest.config.ts, sequence.sequencer): project by
// project (a worker keeps its process, and the modules it loaded, only from one file to the next of
// the same project), and in each project the longest file first, so that the two workers end
// together instead of one finishing a long file alone at the end. vitest's own order sorts a fresh
// clone's files (no results cache) by size, which put the slowest files (a real `npm start`, the axe
// pass over every screen) late. A file that failed last time still goes first.

import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file of 8 s or more took in a full run (the fresh-clone run of 30 November 2026, two
 * workers: only the order matters; a file's retried attempts left out). Files not listed are
 * estimated from their size; vitest's results cache, when there is one, is preferred to both.
 */
export const MEASURED_SECONDS: Readonly<Record<string, number>> = {
  'console/test/accessibility.e2e.test.ts': 135,
  'ops/test/benchmarks.int.test.ts': 105,
  'ops/test/embedded.int.test.ts': 101,
  'console/test/settings.e2e.test.ts': 77,
  'console/test/leases.e2e.test.ts': 76,
  'console/test/billing-engine.e2e.test.ts': 72,
  'console/test/billing.e2e.test.ts': 67,
  'console/test/reports.e2e.test.ts': 64,
  'console/test/two-factor.e2e.test.ts': 62,
  'console/test/read-model.e2e.test.ts': 55,
  'ops/test/first-start.int.test.ts': 54,
  'console/test/rent-changes.e2e.test.ts': 51,
  'portal/test/customer-portal.e2e.test.ts': 49,
  'console/test/units.e2e.test.ts': 47,
  'console/test/customer-page.e2e.test.ts': 46,
  'console/test/customers.e2e.test.ts': 46,
  'console/test/delinquency.e2e.test.ts': 46,
  'console/test/list-views.e2e.test.ts': 45,
  'console/test/search.e2e.test.ts': 45,
  'portal/test/checkout.e2e.test.ts': 45,
  'console/test/activities.e2e.test.ts': 42,
  'console/test/dashboard.e2e.test.ts': 40,
  'console/test/desk-payments.e2e.test.ts': 38,
  'console/test/locks.e2e.test.ts': 36,
  'console/test/lockout-journey.e2e.test.ts': 33,
  'domain/test/billing-engine.int.test.ts': 32,
  'ops/test/cluster-local.int.test.ts': 32,
  'api/test/payments.api.test.ts': 31,
  'api/test/messages.api.test.ts': 30,
  'console/test/staff-management.e2e.test.ts': 28,
  'portal/test/rent-now.e2e.test.ts': 28,
  'console/test/sign-out.e2e.test.ts': 26,
  'api/test/list-sorting.api.test.ts': 25,
  'projector/test/rebuild.int.test.ts': 25,
  'console/test/audit.e2e.test.ts': 24,
  'ops/test/config.int.test.ts': 23,
  'ops/test/verify.int.test.ts': 23,
  'console/test/statement.e2e.test.ts': 22,
  'api/test/audit-log.api.test.ts': 21,
  'ops/test/staff-create.int.test.ts': 21,
  'api/test/api-reference.e2e.test.ts': 20,
  'console/test/lock-access.e2e.test.ts': 20,
  'console/test/refunds.e2e.test.ts': 19,
  'api/test/generative.api.test.ts': 19,
  'console/test/messages.e2e.test.ts': 17,
  'api/test/invoices.api.test.ts': 17,
  'api/test/route-spellings.api.test.ts': 16,
  'console/test/components/move-in-payment.component.test.tsx': 15,
  'portal/test/statement.e2e.test.ts': 15,
  'projector/test/failing-projection.int.test.ts': 14,
  'portal/test/rent-online.e2e.test.ts': 13,
  'api/test/money-limits.api.test.ts': 13,
  'projector/test/metrics.int.test.ts': 13,
  'console/test/components/settings.component.test.tsx': 12,
  'projector/test/crash.int.test.ts': 12,
  'console/test/components/locks.component.test.tsx': 11,
  'console/test/components/units.component.test.tsx': 11,
  'ops/test/demo-seed.int.test.ts': 11,
  'console/test/components/desk-money.component.test.tsx': 10,
  'console/test/components/move-in-merchandise.component.test.tsx': 10,
  'api/test/access.api.test.ts': 10,
  'api/test/leases.api.test.ts': 10,
  'api/test/page-spans.api.test.ts': 10,
  'ops/test/backup-restore.int.test.ts': 10,
  'portal/test/autopay.e2e.test.ts': 9,
  'api/test/public.api.test.ts': 9,
  'api/test/report-totals.api.test.ts': 9,
  'console/test/components/move-in-protection.component.test.tsx': 8,
  'console/test/components/staff.component.test.tsx': 8,
  'console/test/pending-refund.e2e.test.ts': 8,
  'portal/test/message-choices.e2e.test.ts': 8,
  'api/test/customers.api.test.ts': 8,
  'api/test/pending-refunds.api.test.ts': 8,
  'projector/test/ledger-projection.int.test.ts': 8,
};

/**
 * The projects in the order their files start, each project's files together: a worker goes on
 * to the next file in the same process (its module graph already loaded) only when that file is of
 * the same project (vitest's pool, with isolate: false), and interleaving the projects by length
 * made every file start a process of its own. The longest project first, the short ones last.
 */
const PROJECT_ORDER = ['browser', 'integration', 'component', 'unit'];

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
    const rank = (spec: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(spec.project.name);
      return at === -1 ? PROJECT_ORDER.length : at;
    };
    return [...files].sort((a, b) => {
      const x = expected.get(a)!;
      const y = expected.get(b)!;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      if (rank(a) !== rank(b)) return rank(a) - rank(b);
      return y.ms - x.ms;
    });
  }
}
