import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_SALE_QUANTITY, type MerchandiseItem } from '@storage/contracts/merchandise';
import { Button, Flex, Form, InputNumber, Select } from 'antd';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { formatDollars } from '../../../lib/format.ts';
import { useMerchandiseQuote } from '../api/merchandise.ts';

export type SaleLineValues = { itemId?: string; quantity?: number | null };
export type SaleLine = { itemId: string; quantity: number };

/** "Disc lock · $24.99 · 3 left": what the desk needs to pick an item. */
function itemLabel(item: MerchandiseItem): string {
  const stock = item.stock === null ? '' : ` · ${item.stock === 0 ? 'none left' : `${item.stock} left`}`;
  return `${item.name} · ${formatDollars(item.price)}${stock}`;
}

/** The lines a sale would send, once every row names an item and a whole quantity; null before (or with no row). */
export function completeLines(lines: SaleLineValues[] | undefined): SaleLine[] | null {
  if (!lines || lines.length === 0) return null;
  const complete = lines.every((line) => line.itemId && Number.isInteger(line.quantity) && line.quantity! >= 1 && line.quantity! <= MAX_SALE_QUANTITY);
  return complete ? lines.map((line) => ({ itemId: line.itemId!, quantity: line.quantity! })) : null;
}

/**
 * The quote of the lines on screen, asked once the desk stops typing. `current`: the quote is of
 * exactly these lines (not the last one, kept on screen while the next loads).
 */
export function useLinesQuote(facilityId: string | null, watched: SaleLineValues[] | undefined) {
  const lines = completeLines(watched);
  // The lines as text, so an equal list is the same value.
  const typed = lines && JSON.stringify(lines);
  const quotedLines = useDebouncedValue(typed, 250);
  const quote = useMerchandiseQuote(facilityId, quotedLines ? (JSON.parse(quotedLines) as SaleLine[]) : null);
  const current = quote.data !== undefined && !quote.isPlaceholderData && typed !== null && typed === quotedLines;
  return { lines, quote, current };
}

/**
 * The rows of a sale in a form's list `name`: an item of `items` (one out of stock shown but not
 * chosen) and its quantity each; an item once. `minRows`: the rows that may not be removed.
 */
export function MerchandiseLineFields({ name, items, minRows }: { name: string; items: MerchandiseItem[]; minRows: number }) {
  const form = Form.useFormInstance();
  return (
    <Form.List name={name}>
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
                      const others = (form.getFieldValue(name) as SaleLineValues[]).filter((line, at) => at !== index && line.itemId === itemId);
                      if (itemId && others.length > 0) throw new Error('Item is already on another line');
                    },
                  },
                ]}
              >
                <Select
                  aria-label={`Item ${index + 1}`}
                  placeholder="Choose an item"
                  showSearch={{ optionFilterProp: 'label' }}
                  options={items.map((item) => ({ value: item.id, label: itemLabel(item), disabled: item.stock === 0 }))}
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
                disabled={rows.length <= minRows}
                onClick={() => remove(row.name)}
                style={{ marginTop: index === 0 ? 30 : 0 }}
              />
            </Flex>
          ))}
          <div>
            <Button icon={<PlusOutlined />} onClick={() => add({ quantity: 1 })} disabled={rows.length >= items.length}>
              Add Item
            </Button>
          </div>
        </Flex>
      )}
    </Form.List>
  );
}
