import { ShoppingOutlined } from '@ant-design/icons';
import {
  AddMerchandiseRequest,
  AdjustMerchandiseStockRequest,
  ChangeMerchandiseRequest,
  LOW_STOCK,
  type MerchandiseItem,
  RestockMerchandiseRequest,
} from '@storage/contracts/merchandise';
import { serverMessage } from '@storage/web-client/api';
import { Button, Card, Flex, Form, Input, InputNumber, Result, Select, Skeleton, Switch, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useFacilities } from '../../../lib/facilities.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useAddMerchandise, useChangeMerchandise, useCountMerchandiseStock, useMerchandise, useRestockMerchandise } from '../api/merchandise.ts';

const addFields = AddMerchandiseRequest.shape;
const changeFields = ChangeMerchandiseRequest.shape;

/** The stock as the desk reads it: a warning when it runs low, nothing to count for a fee. */
function StockCell({ stock }: { stock: number | null }) {
  if (stock === null) return <Typography.Text type="secondary">Not counted</Typography.Text>;
  if (stock === 0) return <Tag color="error">Out of stock</Tag>;
  if (stock <= LOW_STOCK) return <Tag color="warning">Low stock: {stock}</Tag>;
  return <>{stock}</>;
}

/**
 * Merchandise: what a facility sells at the desk (locks, boxes, fees), with prices, sales tax and
 * stock. Owners and managers add and change items, restock and correct counts; everyone else sees
 * the list. The facility is the one chosen at the top of the console, else one picked here.
 */
export function MerchandiseCard({ canChange }: { canChange: boolean }) {
  const { selectedFacility } = useFacilityScope();
  const facilities = useFacilities();
  const [picked, setPicked] = useState<string | null>(null);
  const facilityId = selectedFacility?.id ?? picked ?? facilities.data?.[0]?.id ?? null;
  const items = useMerchandise(facilityId);
  const [dialog, setDialog] = useState<{ kind: 'add' | 'edit' | 'restock' | 'count'; item: MerchandiseItem | null } | null>(null);
  const close = () => setDialog(null);

  return (
    <Card
      data-testid="merchandise-card"
      title={
        <Flex gap={8} align="center">
          <ShoppingOutlined />
          Merchandise
        </Flex>
      }
      extra={
        <Flex gap={8}>
          {!selectedFacility && (facilities.data?.length ?? 0) > 1 && (
            <Select
              aria-label="Show merchandise of"
              value={facilityId}
              onChange={setPicked}
              style={{ minWidth: 200 }}
              options={(facilities.data ?? []).map((facility) => ({ value: facility.id, label: facility.name }))}
            />
          )}
          {canChange && facilityId && (
            <Button type="primary" onClick={() => setDialog({ kind: 'add', item: null })}>
              Add Item
            </Button>
          )}
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">Locks, boxes and fees sold at the desk, with their prices and stock.</Typography.Paragraph>
      {(facilities.isPending || (facilityId && items.isPending)) && <Skeleton active paragraph={{ rows: 3 }} />}
      {items.isError && <Result status="error" title="Could not load merchandise" subTitle={serverMessage(items.error)} />}
      {items.isSuccess && (
        <Table<MerchandiseItem>
          size="small"
          pagination={false}
          rowKey="id"
          dataSource={items.data}
          locale={{ emptyText: <Typography.Text type="secondary">No items yet</Typography.Text> }}
          scroll={{ x: 'max-content' }}
          onRow={() => ({ 'data-testid': 'merchandise-row' }) as HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: 'Item',
              key: 'name',
              render: (_, item) => (
                <Flex gap={8} align="center">
                  {item.name}
                  {!item.active && <Tag>Retired</Tag>}
                </Flex>
              ),
            },
            { title: 'Price', dataIndex: 'price', key: 'price', align: 'right', render: (price: string) => formatDollars(price) },
            { title: 'Taxable', dataIndex: 'taxable', key: 'taxable', render: (taxable: boolean) => (taxable ? 'Yes' : 'No') },
            { title: 'Stock', dataIndex: 'stock', key: 'stock', render: (stock: number | null) => <StockCell stock={stock} /> },
            ...(canChange
              ? [
                  {
                    title: 'Actions',
                    key: 'actions',
                    render: (_: unknown, item: MerchandiseItem) => (
                      <Flex gap={4} wrap>
                        <Button size="small" aria-label={`Edit ${item.name}`} onClick={() => setDialog({ kind: 'edit', item })}>
                          Edit
                        </Button>
                        {item.stock !== null && (
                          <>
                            <Button size="small" aria-label={`Restock ${item.name}`} onClick={() => setDialog({ kind: 'restock', item })}>
                              Restock
                            </Button>
                            <Button size="small" aria-label={`Count ${item.name}`} onClick={() => setDialog({ kind: 'count', item })}>
                              Count
                            </Button>
                          </>
                        )}
                      </Flex>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {facilityId && dialog?.kind === 'add' && <AddItemDialog facilityId={facilityId} onClose={close} />}
      {dialog?.item && dialog.kind === 'edit' && <EditItemDialog item={dialog.item} onClose={close} />}
      {dialog?.item && dialog.kind === 'restock' && <RestockDialog item={dialog.item} onClose={close} />}
      {dialog?.item && dialog.kind === 'count' && <CountDialog item={dialog.item} onClose={close} />}
    </Card>
  );
}

type ItemValues = { name: string; price: string; taxable: boolean; stock?: number | null; active?: boolean };

function ItemFields({ adding }: { adding: boolean }) {
  return (
    <>
      <Form.Item name="name" label="Name" rules={[contractRule('Name', changeFields.name)]}>
        <Input placeholder="Disc lock" />
      </Form.Item>
      <Form.Item name="price" label="Price" rules={[contractRule('Price', changeFields.price)]}>
        <Input prefix="$" placeholder="0.00" inputMode="decimal" />
      </Form.Item>
      <Form.Item name="taxable" label="Sales tax applies" valuePropName="checked">
        <Switch />
      </Form.Item>
      {adding ? (
        <Form.Item
          name="stock"
          label="Stock on hand"
          extra="Leave empty for an item with no stock, such as a fee."
          rules={[contractRule('Stock on hand', addFields.stock)]}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      ) : (
        <Form.Item name="active" label="Still sold" valuePropName="checked" extra="Turn off to retire the item: it stays listed but is no longer sold.">
          <Switch />
        </Form.Item>
      )}
    </>
  );
}

function AddItemDialog({ facilityId, onClose }: { facilityId: string; onClose: () => void }) {
  const add = useAddMerchandise(facilityId);
  const toast = useToast();
  const submit = ({ name, price, taxable, stock }: ItemValues) =>
    add.mutate({ name, price, taxable, stock: stock ?? null }, toast.outcome('Item added', 'Failed to add the item', onClose));
  return (
    <FormDialog open title="Add Item" width={480} onClose={onClose}>
      <DialogForm<ItemValues>
        name="add-item"
        initialValues={{ taxable: true }}
        onFinish={submit}
        submitLabel="Add Item"
        saving={add.isPending}
        onCancel={onClose}
      >
        <ItemFields adding />
      </DialogForm>
    </FormDialog>
  );
}

function EditItemDialog({ item, onClose }: { item: MerchandiseItem; onClose: () => void }) {
  const change = useChangeMerchandise(item.id);
  const toast = useToast();
  const submit = ({ name, price, taxable, active }: ItemValues) =>
    change.mutate({ name, price, taxable, active: active ?? item.active }, toast.outcome('Item saved', 'Failed to save the item', onClose));
  return (
    <FormDialog open title={`Edit ${item.name}`} width={480} onClose={onClose}>
      <DialogForm<ItemValues>
        name="edit-item"
        initialValues={{ name: item.name, price: item.price, taxable: item.taxable, active: item.active }}
        onFinish={submit}
        submitLabel="Save"
        saving={change.isPending}
        onCancel={onClose}
      >
        <ItemFields adding={false} />
      </DialogForm>
    </FormDialog>
  );
}

function RestockDialog({ item, onClose }: { item: MerchandiseItem; onClose: () => void }) {
  const restock = useRestockMerchandise(item.id);
  const toast = useToast();
  return (
    <FormDialog open title={`Restock ${item.name}`} width={400} onClose={onClose}>
      <Typography.Paragraph type="secondary">On hand now: {item.stock}</Typography.Paragraph>
      <DialogForm<{ quantity: number }>
        name="restock-item"
        onFinish={(values) => restock.mutate(values, toast.outcome('Item restocked', 'Failed to restock the item', onClose))}
        submitLabel="Restock"
        saving={restock.isPending}
        onCancel={onClose}
      >
        <Form.Item name="quantity" label="Quantity delivered" rules={[contractRule('Quantity delivered', RestockMerchandiseRequest.shape.quantity)]}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </DialogForm>
    </FormDialog>
  );
}

function CountDialog({ item, onClose }: { item: MerchandiseItem; onClose: () => void }) {
  const count = useCountMerchandiseStock(item.id);
  const toast = useToast();
  const fields = AdjustMerchandiseStockRequest.shape;
  return (
    <FormDialog open title={`Count ${item.name}`} width={400} onClose={onClose}>
      <Typography.Paragraph type="secondary">On hand by the records: {item.stock}</Typography.Paragraph>
      <DialogForm<{ stock: number; reason: string }>
        name="count-item"
        initialValues={{ stock: item.stock }}
        onFinish={(values) => count.mutate(values, toast.outcome('Stock corrected', 'Failed to correct the stock', onClose))}
        submitLabel="Save Count"
        saving={count.isPending}
        onCancel={onClose}
      >
        <Form.Item name="stock" label="Counted on the shelf" rules={[contractRule('Counted on the shelf', fields.stock)]}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="reason" label="Reason" rules={[contractRule('Reason', fields.reason)]}>
          <Input placeholder="Damaged, lost, miscounted" />
        </Form.Item>
      </DialogForm>
    </FormDialog>
  );
}
