import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { PageHeader } from '../../components/page-header.tsx';
import { CreateInvoiceDialog } from '../../features/invoices/components/create-invoice-dialog.tsx';
import { InvoicesTable } from '../../features/invoices/components/invoices-table.tsx';
import { useFacilityScope } from '../../lib/facility-scope.tsx';
import { useCanChange } from '../../lib/staff-permissions.ts';

/** `/billing?new=1` opens the Create Invoice dialog (the dashboard's 'Generate Invoice' links there). */
const NEW_INVOICE_PARAM = 'new';

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
      <InvoicesTable />
      <CreateInvoiceDialog open={canChange && (creating || searchParams.get(NEW_INVOICE_PARAM) === '1')} onClose={closeDialog} />
    </>
  );
}
