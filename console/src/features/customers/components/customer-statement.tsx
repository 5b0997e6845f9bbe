import { FilePdfOutlined } from '@ant-design/icons';
import { type LedgerEntry, ledgerEntryKindLabels } from '@storage/contracts/ledger';
import { Button, Flex, Input, Typography } from 'antd';
import { useId, useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { statementPdfUrl, useLedger } from '../api/get-ledger.ts';

const column = dataTableColumns<LedgerEntry>();
const statementColumns = column.columns([
  column.accessor('date', { header: 'Date', cell: (info) => formatDate(info.getValue()) }),
  column.accessor('kind', { header: 'Type', cell: (info) => ledgerEntryKindLabels[info.getValue()] }),
  column.accessor('description', { header: 'Description' }),
  column.accessor('amount', { header: 'Amount', cell: (info) => <span className="ledger-money">{formatDollars(info.getValue())}</span> }),
  column.accessor('balance', { header: 'Balance', cell: (info) => <span className="ledger-money">{formatDollars(info.getValue())}</span> }),
]);

/** What the renter owes (or the credit in their favour), in words. */
export function balanceWords(balance: string): string {
  return balance.startsWith('-') ? `${formatDollars(balance.slice(1))} credit` : formatDollars(balance);
}

/**
 * The customer's statement: every charge, late fee, payment, credit, refund, write-off and void up
 * to a day (today unless chosen), with the running balance, and the same as a PDF to hand over.
 */
export function CustomerStatement({ customerId }: { customerId: string }) {
  const [asOf, setAsOf] = useState<string | null>(null);
  const ledger = useLedger(customerId, asOf);
  const asOfId = useId();
  return (
    <Flex vertical gap={12} className="customer-statement">
      <Flex wrap gap={12} align="end" justify="space-between">
        <Flex vertical gap={4}>
          <label htmlFor={asOfId}>As of</label>
          <Input
            id={asOfId}
            type="date"
            style={{ width: 180 }}
            value={asOf ?? ledger.data?.asOf ?? ''}
            onChange={(event) => setAsOf(event.target.value || null)}
            data-testid="statement-as-of"
          />
        </Flex>
        <Flex wrap gap={12} align="center">
          <Typography.Text strong data-testid="statement-balance">
            Balance{ledger.data ? ` as of ${formatDate(ledger.data.asOf)}` : ''}: {ledger.data ? balanceWords(ledger.data.balance) : '…'}
          </Typography.Text>
          <Button icon={<FilePdfOutlined />} href={statementPdfUrl(customerId, asOf)} download>
            Download PDF
          </Button>
        </Flex>
      </Flex>
      <DataTable
        label="Statement of this customer"
        className="ledger-table"
        columns={statementColumns}
        rows={ledger.data?.entries}
        getRowId={(entry) => entry.id}
        failure={ledger.isError ? { title: 'Could not load the statement', error: ledger.error } : null}
        dimmed={ledger.isPlaceholderData}
        empty="Nothing charged or paid yet"
        rowTestId="statement-row"
      />
    </Flex>
  );
}
