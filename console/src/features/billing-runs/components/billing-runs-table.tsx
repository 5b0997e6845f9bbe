import type { BillingRun } from '@storage/contracts/billing';
import { totalText } from '@storage/contracts/page-info';
import { Card, Typography } from 'antd';
import { useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { BILLING_RUNS_PAGE_SIZE, useBillingRuns } from '../api/get-billing-runs.ts';
import './billing-runs-table.css';

const column = dataTableColumns<BillingRun>();
const columns = column.columns([
  column.accessor('ranAt', { header: 'Ran At', cell: (info) => `${formatDate(info.getValue())}, ${formatTime12h(info.getValue())}` }),
  column.accessor('facilityName', { header: 'Facility', cell: (info) => info.getValue() ?? 'No facility' }),
  column.accessor('billingDate', { header: 'Billing Date', cell: (info) => formatDate(info.getValue()) }),
  column.accessor('invoicesIssued', { header: 'Invoices Issued' }),
  column.accessor('lateFeesCharged', { header: 'Late Fees' }),
  column.accessor('invoicesOverdue', { header: 'Marked Overdue' }),
  column.accessor('skipped', { header: 'Skipped', cell: (info) => <SkippedLeases skipped={info.getValue()} /> }),
]);

/** The count; the reasons open below it (a native disclosure: keyboard and screen readers know it). */
function SkippedLeases({ skipped }: { skipped: BillingRun['skipped'] }) {
  if (skipped.length === 0) return <span>0</span>;
  return (
    <details className="billing-run-skipped">
      <summary>{skipped.length}</summary>
      <ul>
        {skipped.map((skip) => (
          <li key={skip.leaseId}>
            {skip.reason} <Typography.Text type="secondary">(lease {skip.leaseId.slice(0, 8)})</Typography.Text>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The billing-run history: what each run of a facility's billing day issued, charged, marked and skipped; newest first, scoped to the selected facility. */
export function BillingRunsTable() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const [paging, setPaging] = useState({ facilityId, page: 1 });
  const page = paging.facilityId === facilityId ? paging.page : 1;
  const runs = useBillingRuns(facilityId, page);
  const total = runs.data?.total ?? NO_TOTAL;

  return (
    <Card
      title="Billing Runs"
      extra={
        runs.isSuccess && (
          <Typography.Text type="secondary" data-testid="billing-run-count">
            {totalText(total)} {total.count === 1 ? 'run' : 'runs'}
          </Typography.Text>
        )
      }
      styles={{ body: { padding: 0 } }}
    >
      <DataTable
        label="Billing runs"
        className="billing-runs-table"
        columns={columns}
        rows={runs.data?.runs}
        getRowId={(run) => run.id}
        failure={runs.isError ? { title: 'Could not load billing runs', error: runs.error } : null}
        dimmed={runs.isPlaceholderData}
        empty="No billing runs yet"
        rowTestId="billing-run-row"
      />
      <ListPagination page={page} pageSize={BILLING_RUNS_PAGE_SIZE} total={total} onChange={(next) => setPaging({ facilityId, page: next })} />
    </Card>
  );
}
