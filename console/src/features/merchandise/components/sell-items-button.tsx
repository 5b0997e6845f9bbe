import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { InvoiceLine } from '@storage/contracts/billing';
import { MAX_SALE_QUANTITY, type MerchandiseItem } from '@storage/contracts/merchandise';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Empty, Flex, Form, InputNumber, Select, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useFacilities } from '../../../lib/facilities.ts';
import { formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useMerchandise, useMerchandiseQuote, useSellMerchandise } from '../api/merchandise.ts';

type LineValues = { itemId?: string; quantity?: number | null };
type SaleValues = { facilityId: string | null; lines: LineValues[] };

/** "Disc lock · $24.99 · 3 left": what the desk needs to pick an item. */
function itemLabel(item: MerchandiseItem): string {
  const stock = item.stock === null ? '' : ` · ${item.stock === 0 ? 'none left' : `${item.stock} left`}`;
  return `${item.name} · ${formatDollars(item.price)}${stock}`;
}

/** The lines a sale would send, once every row names an item and a whole quantity; null before. */
function completeLines(lines: LineValues[] | undefined) {
  if (!lines || lines.length === 0) return null;
  const complete = lines.every((line) => line.itemId && Number.isInteger(line.quantity) && line.quantity! >= 1 && line.quantity! <= MAX_SALE_QUANTITY);
  return complete ? lines.map((line) => ({ itemId: line.itemId!, quantity: line.quantity! })) : null;
}

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
  const watchedLines = Form.useWatch('lines', form) as LineValues[] | undefined;
  const items = useMerchandise(chosenFacility);
  const lines = completeLines(watchedLines);
  // Quoted once the desk stops typing: the lines as text, so an equal list is the same value.
  const quotedLines = useDebouncedValue(lines && JSON.stringify(lines), 250);
  const quote = useMerchandiseQuote(chosenFacility, quotedLines ? (JSON.parse(quotedLines) as typeof lines) : null);
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
      {items.isSuccess && onSale.length > 0 && (
        <Form.List name="lines">
          {(rows, { add, remove }) => (
            <Flex vertical gap={0}>
              {rows.map((row, index) => (
                <Flex key={row.key} gap={8} align="flex-start" data-testid="sale-line">
                  <Form.Item
                    name={[row.name, 'itemId']}
                    label={index === 0 ? 'Item' : undefined}
                    style={{ flex: 1, minWidth: 0 }}
                    rules={[
                      { required: true, message: 'Item is required' },
                      {
                        validator: async (_rule, itemId: string | undefined) => {
                          const others = (form.getFieldValue('lines') as LineValues[]).filter((line, at) => at !== index && line.itemId === itemId);
                          if (itemId && others.length > 0) throw new Error('Item is already on another line');
                        },
                      },
                    ]}
                  >
                    <Select
                      aria-label={`Item ${index + 1}`}
                      placeholder="Choose an item"
                      showSearch={{ optionFilterProp: 'label' }}
                      options={onSale.map((item) => ({ value: item.id, label: itemLabel(item), disabled: item.stock === 0 }))}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[row.name, 'quantity']}
                    label={index === 0 ? 'Quantity' : undefined}
                    style={{ width: 110 }}
                    rules={[
                      { required: true, message: 'Quantity is required' },
                      { type: 'integer', min: 1, max: MAX_SALE_QUANTITY, message: `Quantity must be a whole number from 1 to ${MAX_SALE_QUANTITY}` },
                    ]}
                  >
                    <InputNumber aria-label={`Quantity ${index + 1}`} min={1} max={MAX_SALE_QUANTITY} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                  <Button
                    type="text"
                    aria-label="Remove item"
                    icon={<DeleteOutlined />}
                    disabled={rows.length === 1}
                    onClick={() => remove(row.name)}
                    style={{ marginTop: index === 0 ? 30 : 0 }}
                  />
                </Flex>
              ))}
              <div>
                <Button icon={<PlusOutlined />} onClick={() => add({ quantity: 1 })} disabled={rows.length >= onSale.length}>
                  Add Item
                </Button>
              </div>
            </Flex>
          )}
        </Form.List>
      )}
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
