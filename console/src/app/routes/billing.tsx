import { PlusOutlined } from '@ant-design/icons';
import { Button, Tabs } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { PageHeader } from '../../components/page-header.tsx';
import { BillingRunsTable } from '../../features/billing-runs/components/billing-runs-table.tsx';
import { CreateInvoiceDialog } from '../../features/invoices/components/create-invoice-dialog.tsx';
import { InvoicesTable } from '../../features/invoices/components/invoices-table.tsx';
import { useFacilityScope } from '../../lib/facility-scope.tsx';
import { useCanChange } from '../../lib/staff-permissions.ts';

/** `/billing?new=1` opens the Create Invoice dialog (the dashboard's 'Generate Invoice' links there). */
const NEW_INVOICE_PARAM = 'new';
/** `/billing?view=runs` shows the billing-run history. */
const VIEW_PARAM = 'view';
const RUNS_VIEW = 'runs';

export default function BillingPage() {
  const { selectedFacility } = useFacilityScope();
  const [searchParams, setSearchParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const canChange = useCanChange();
  const subtitle = selectedFacility?.name ? `Manage invoices and track payments at ${selectedFacility.name}` : 'Manage invoices and track payments';

  const closeDialog = () => {
    setCreating(false);
    if (searchParams.has(NEW_INVOICE_PARAM)) {
      setSearchParams(
        (params) => {
          params.delete(NEW_INVOICE_PARAM);
          return params;
        },
        { replace: true },
      );
    }
  };

  return (
    <>
      <PageHeader
        title="Billing & Invoices"
        subtitle={subtitle}
        actions={
          canChange && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              Create Invoice
            </Button>
          )
        }
      />
      <Tabs
        activeKey={searchParams.get(VIEW_PARAM) === RUNS_VIEW ? RUNS_VIEW : 'invoices'}
        onChange={(key) =>
          setSearchParams((params) => {
            if (key === RUNS_VIEW) params.set(VIEW_PARAM, RUNS_VIEW);
            else params.delete(VIEW_PARAM);
            return params;
          })
        }
        items={[
          { key: 'invoices', label: 'Invoices', children: <InvoicesTable /> },
          { key: RUNS_VIEW, label: 'Billing Runs', children: <BillingRunsTable /> },
        ]}
      />
      <CreateInvoiceDialog open={canChange && (creating || searchParams.get(NEW_INVOICE_PARAM) === '1')} onClose={closeDialog} />
    </>
  );
}
