import type { InvoiceLine } from '@storage/contracts/billing';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Empty, Form, Select, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useFacilities } from '../../../lib/facilities.ts';
import { formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useMerchandise, useSellMerchandise } from '../api/merchandise.ts';
import { completeLines, MerchandiseLineFields, type SaleLineValues, useLinesQuote } from './merchandise-line-fields.tsx';

type SaleValues = { facilityId: string | null; lines: SaleLineValues[] };

/**
 * Sell Items: locks, boxes and fees at the desk. Items of the renter's facility (or another one
 * chosen), with quantities; the lines, their tax and the total are shown as the server works them
 * out before anything is sold; confirming issues the renter one invoice.
 */
export function SellItemsButton({ customerId, facilityId, onSold }: { customerId: string; facilityId: string | null; onSold: () => unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Sell Items</Button>
      <FormDialog open={open} title="Sell Items" width={640} onClose={() => setOpen(false)}>
        <SellItemsForm customerId={customerId} facilityId={facilityId} onSold={onSold} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

type SellItemsFormProps = { customerId: string; facilityId: string | null; onSold: () => unknown; onDone: () => void };

function SellItemsForm({ customerId, facilityId, onSold, onDone }: SellItemsFormProps) {
  const [form] = Form.useForm<SaleValues>();
  const facilities = useFacilities();
  const chosenFacility = Form.useWatch('facilityId', form) ?? facilityId;
  const watchedLines = Form.useWatch('lines', form) as SaleLineValues[] | undefined;
  const items = useMerchandise(chosenFacility);
  const { quote } = useLinesQuote(chosenFacility, watchedLines);
  const sell = useSellMerchandise(customerId, onSold);
  const toast = useToast();
  const onSale = (items.data ?? []).filter((item) => item.active);

  const submit = (values: SaleValues) => {
    const request = { facilityId: values.facilityId, lines: completeLines(values.lines) ?? [] };
    sell.mutate(request, {
      onSuccess: (sale) => {
        toast.success(`Items sold: invoice ${sale.invoiceNumber} for ${formatDollars(sale.total)}`);
        onDone();
      },
      onError: (error) => toast.failure('Failed to sell the items', error),
    });
  };

  return (
    <DialogForm<SaleValues>
      form={form}
      name="sell-items"
      initialValues={{ facilityId, lines: [{ quantity: 1 }] }}
      onFinish={submit}
      onValuesChange={(changed) => {
        // Another facility's catalogue: the items picked from the last one are not sold there.
        if ('facilityId' in changed) form.setFieldValue('lines', [{ quantity: 1 }]);
      }}
      submitLabel="Sell Items"
      saving={sell.isPending}
      onCancel={onDone}
    >
      <Form.Item name="facilityId" label="Facility" rules={[{ required: true, message: 'Facility is required' }]}>
        <Select
          placeholder="Choose a facility"
          loading={facilities.isPending}
          options={(facilities.data ?? []).map((facility) => ({ value: facility.id, label: facility.name }))}
        />
      </Form.Item>
      {chosenFacility && items.isPending && <Skeleton active title={false} paragraph={{ rows: 2 }} />}
      {items.isError && <Alert type="error" showIcon title="Could not load the items" description={serverMessage(items.error)} />}
      {items.isSuccess && onSale.length === 0 && <Empty description="This facility sells no items yet" />}
      {items.isSuccess && onSale.length > 0 && <MerchandiseLineFields name="lines" items={onSale} minRows={1} />}
      <SaleQuote lines={quote.data?.lines ?? null} total={quote.data?.total ?? null} error={quote.isError ? serverMessage(quote.error) : null} />
    </DialogForm>
  );
}

/** The invoice the sale would issue: each line, its tax, the total. */
function SaleQuote({ lines, total, error }: { lines: InvoiceLine[] | null; total: string | null; error: string | null }) {
  if (error) return <Alert type="warning" showIcon title="Could not work out the total" description={error} style={{ marginTop: 16 }} />;
  if (!lines || total === null) return null;
  return (
    <Table<InvoiceLine>
      data-testid="sale-quote"
      size="small"
      pagination={false}
      style={{ marginTop: 16 }}
      rowKey={(line) => `${line.kind}:${line.description}`}
      dataSource={lines}
      columns={[
        { title: 'Line', dataIndex: 'description', key: 'description' },
        { title: 'Amount', dataIndex: 'amount', key: 'amount', align: 'right', render: (amount: string) => formatDollars(amount) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0}>
            <Typography.Text strong>Total</Typography.Text>
          </Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right">
            <Typography.Text strong data-testid="sale-total">
              {formatDollars(total)}
            </Typography.Text>
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}
