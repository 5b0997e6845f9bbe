import { DownloadOutlined } from '@ant-design/icons';
import type { AgingRow, PaymentsByMethod, RentRollRow, RevenueByChargeTypeRow, SalesTaxRow } from '@storage/contracts/reports';
import { Button, Card, Flex, Input, Typography } from 'antd';
import { type ReactNode, useId, useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { formatDate, formatDollars, formatPeriod } from '../../../lib/format.ts';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import {
  RENT_ROLL_PAGE_SIZE,
  reportQuery,
  useAging,
  usePaymentsByMethod,
  useRentRoll,
  useRevenueByChargeType,
  useSalesTax,
} from '../api/get-ledger-reports.ts';

// The Reports screen's tables from the ledger, each with its CSV download (the same report, the
// same scope and range). Every figure is the server's; nothing here adds money up.

/** 'May 2026' for 2026-05; other words (the totals row's) as they are. */
const monthWords = (month: string) =>
  /^\d{4}-\d{2}$/.test(month) ? new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }) : month;

const money = (amount: string) => <span className="ledger-money">{formatDollars(amount)}</span>;

type ReportCardProps = { title: string; csv: string; testId: string; controls?: ReactNode; summary?: ReactNode; children: ReactNode };

function ReportCard({ title, csv, testId, controls, summary, children }: ReportCardProps) {
  return (
    <Card
      title={title}
      data-testid={testId}
      extra={
        <Button icon={<DownloadOutlined />} href={csv} download aria-label={`Download ${title} as CSV`}>
          CSV
        </Button>
      }
    >
      <Flex vertical gap={12}>
        {controls}
        {children}
        {summary && <Typography.Text type="secondary">{summary}</Typography.Text>}
      </Flex>
    </Card>
  );
}

/** The day a receivables report shows: today unless an earlier one is chosen (the server refuses days to come). */
function AsOfControl({ asOf, shown, onChange }: { asOf: string | null; shown: string | undefined; onChange: (day: string | null) => void }) {
  const id = useId();
  // The day shown while none is chosen is the server's today (the business day): the last one to offer.
  const [today, setToday] = useState<string>();
  if (asOf === null && shown !== undefined && shown !== today) setToday(shown);
  return (
    <Flex vertical gap={4}>
      <label htmlFor={id}>As of</label>
      <Input id={id} type="date" style={{ width: 180 }} value={asOf ?? shown ?? ''} max={today} onChange={(e) => onChange(e.target.value || null)} />
    </Flex>
  );
}

const rentRollColumn = dataTableColumns<RentRollRow>();
const rentRollColumns = rentRollColumn.columns([
  rentRollColumn.accessor('unitNumber', { header: 'Unit', cell: (info) => `${info.row.original.building} · ${info.getValue()}` }),
  rentRollColumn.accessor('customer', { header: 'Renter' }),
  rentRollColumn.accessor('monthlyRate', { header: 'Rate', cell: (info) => money(info.getValue()) }),
  rentRollColumn.accessor('streetRate', { header: 'Street Rate', cell: (info) => money(info.getValue()) }),
  rentRollColumn.accessor('ratePaid', {
    header: 'Rate Paid',
    // The promotion is named under what it brought the rent to; no current period: nothing charged to show.
    cell: (info) => {
      const { ratePaid, promotion } = info.row.original;
      return (
        <Flex vertical>
          {ratePaid === null ? '—' : money(ratePaid)}
          {promotion && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {promotion}
            </Typography.Text>
          )}
        </Flex>
      );
    },
  }),
  rentRollColumn.accessor('currentPeriod', {
    header: 'Current Period',
    cell: (info) => {
      const period = info.getValue();
      return period ? formatPeriod(period.start, period.end) : '—';
    },
  }),
  rentRollColumn.accessor('billedThrough', { header: 'Billed Through', cell: (info) => (info.getValue() ? formatDate(info.getValue()!) : '—') }),
  rentRollColumn.accessor('balance', { header: 'Renter Balance', cell: (info) => money(info.getValue()) }),
  rentRollColumn.accessor('daysPastDue', { header: 'Days Past Due' }),
]);

/** Who rents what, for which period, and what they owe by the ledger: a page of leases at a time, the figures of them all below. */
export function RentRollReport({ facilityId }: { facilityId: string | null }) {
  const [asOf, setAsOf] = useState<string | null>(null);
  const [paging, setPaging] = useState({ facilityId, asOf, page: 1 });
  const page = paging.facilityId === facilityId && paging.asOf === asOf ? paging.page : 1;
  const rentRoll = useRentRoll(facilityId, asOf, page);
  const roll = rentRoll.data?.roll;
  return (
    <ReportCard
      title="Rent Roll"
      testId="rent-roll-report"
      csv={`/api/reports/rent-roll.csv${reportQuery({ facilityId, asOf })}`}
      controls={<AsOfControl asOf={asOf} shown={roll?.asOf} onChange={setAsOf} />}
      summary={
        roll &&
        `${roll.leases.toLocaleString('en-US')} ${roll.leases === 1 ? 'lease' : 'leases'} · ${formatDollars(roll.totalMonthlyRate)} a month · renters owe ${formatDollars(roll.totalBalance)}`
      }
    >
      <DataTable
        label="Rent roll"
        className="ledger-table"
        compact
        columns={rentRollColumns}
        rows={roll?.rows}
        getRowId={(row) => row.leaseId}
        failure={rentRoll.isError ? { title: 'Could not load the rent roll', error: rentRoll.error } : null}
        dimmed={rentRoll.isPlaceholderData}
        empty={asOf ? `No active leases on ${formatDate(asOf)}` : 'No active leases'}
        rowTestId="rent-roll-row"
      />
      <ListPagination
        page={page}
        pageSize={RENT_ROLL_PAGE_SIZE}
        total={rentRoll.data?.total ?? NO_TOTAL}
        onChange={(next) => setPaging({ facilityId, asOf, page: next })}
      />
    </ReportCard>
  );
}

type AgingLine = Omit<AgingRow, 'customerId' | 'email'> & { id: string };
const agingColumn = dataTableColumns<AgingLine>();
const agingMoney = (key: 'current' | 'days1to30' | 'days31to60' | 'days61to90' | 'days90plus' | 'credit' | 'balance' | 'unreconciled', header: string) =>
  agingColumn.accessor(key, { header, cell: (info) => money(info.getValue()) });
const agingColumns = agingColumn.columns([
  agingColumn.accessor('customer', { header: 'Renter' }),
  agingMoney('current', 'Current'),
  agingMoney('days1to30', '1–30 Days'),
  agingMoney('days31to60', '31–60 Days'),
  agingMoney('days61to90', '61–90 Days'),
  agingMoney('days90plus', '90+ Days'),
  agingMoney('credit', 'Credit'),
  agingMoney('balance', 'Balance'),
]);
const agingColumnsUnreconciled = agingColumn.columns([...agingColumns, agingMoney('unreconciled', 'Unreconciled')]);

/** Each renter's open invoices by days past due, their credit, and their ledger balance; totals last. */
export function AgingReport({ facilityId }: { facilityId: string | null }) {
  const [asOf, setAsOf] = useState<string | null>(null);
  const aging = useAging(facilityId, asOf);
  const rows: AgingLine[] | undefined = aging.data && [
    ...aging.data.rows.map(({ customerId, email: _email, ...row }) => ({ ...row, id: customerId })),
    { ...aging.data.totals, id: 'total', customer: 'Total', facility: null },
  ];
  // The invoices explain the ledger when the history is whole; a difference is shown, never hidden.
  const unreconciled = aging.data && aging.data.totals.unreconciled !== '0.00';
  return (
    <ReportCard
      title="Aging Receivables by Renter"
      testId="aging-report"
      csv={`/api/reports/aging.csv${reportQuery({ facilityId, asOf })}`}
      controls={<AsOfControl asOf={asOf} shown={aging.data?.asOf} onChange={setAsOf} />}
    >
      <DataTable
        label="Aging receivables by renter"
        className="ledger-table"
        compact
        columns={unreconciled ? agingColumnsUnreconciled : agingColumns}
        rows={aging.data && aging.data.rows.length > 0 ? rows : aging.data ? [] : undefined}
        getRowId={(row) => row.id}
        failure={aging.isError ? { title: 'Could not load the aging', error: aging.error } : null}
        dimmed={aging.isPlaceholderData}
        empty={asOf ? `No renter owed anything on ${formatDate(asOf)}` : 'No renter owes anything'}
      />
    </ReportCard>
  );
}

type PaymentLine = Omit<PaymentsByMethod['rows'][number], 'date' | 'method'> & { id: string; date: string | null };
const paymentColumn = dataTableColumns<PaymentLine>();
const paymentColumns = paymentColumn.columns([
  paymentColumn.accessor('date', { header: 'Date', cell: (info) => (info.getValue() ? formatDate(info.getValue()!) : 'Total') }),
  paymentColumn.accessor('methodLabel', { header: 'Method' }),
  paymentColumn.accessor('payments', { header: 'Payments' }),
  paymentColumn.accessor('paid', { header: 'Paid', cell: (info) => money(info.getValue()) }),
  paymentColumn.accessor('refunds', { header: 'Refunds' }),
  paymentColumn.accessor('refunded', { header: 'Refunded', cell: (info) => money(info.getValue()) }),
  paymentColumn.accessor('total', { header: 'Total', cell: (info) => money(info.getValue()) }),
]);

/** The end-of-day report: money in per day and method over a range (today by default), refunds negative, totals per method and overall. */
type DaysControlProps = {
  from: string | undefined;
  to: string | undefined;
  onFrom: (day: string | null) => void;
  onTo: (day: string | null) => void;
};

/** The days of a report of a range; unchosen, the server's (shown once it answers). */
function DaysControl({ from, to, onFrom, onTo }: DaysControlProps) {
  const fromId = useId();
  const toId = useId();
  return (
    <Flex wrap gap={12} align="end">
      <Flex vertical gap={4}>
        <label htmlFor={fromId}>From</label>
        <Input id={fromId} type="date" style={{ width: 180 }} value={from ?? ''} onChange={(e) => onFrom(e.target.value || null)} />
      </Flex>
      <Flex vertical gap={4}>
        <label htmlFor={toId}>To</label>
        <Input id={toId} type="date" style={{ width: 180 }} value={to ?? ''} onChange={(e) => onTo(e.target.value || null)} />
      </Flex>
    </Flex>
  );
}

export function PaymentsByMethodReport({ facilityId }: { facilityId: string | null }) {
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const report = usePaymentsByMethod(facilityId, from, to);
  const data = report.data;
  const rows: PaymentLine[] | undefined = data && [
    ...data.rows.map(({ method, ...row }) => ({ ...row, id: `${row.date}-${method}` })),
    ...(data.rows.length > 0
      ? [
          ...data.methods.map(({ method, ...row }) => ({ ...row, id: `total-${method}`, date: null })),
          { ...data.totals, id: 'total', date: null, methodLabel: 'All methods' },
        ]
      : []),
  ];
  return (
    <ReportCard
      title="Payments by Method"
      testId="payments-by-method-report"
      csv={`/api/reports/payments-by-method.csv${reportQuery({ facilityId, from: from ?? data?.from, to: to ?? data?.to })}`}
      controls={<DaysControl from={from ?? data?.from} to={to ?? data?.to} onFrom={setFrom} onTo={setTo} />}
    >
      <DataTable
        label="Payments by method per day"
        className="ledger-table"
        compact
        columns={paymentColumns}
        rows={rows}
        getRowId={(row) => row.id}
        failure={report.isError ? { title: 'Could not load the payments', error: report.error } : null}
        dimmed={report.isPlaceholderData}
        empty={data && data.from === data.to ? `No payments on ${formatDate(data.from)}` : 'No payments in these days'}
        rowTestId="payments-by-method-row"
      />
    </ReportCard>
  );
}

type RevenueLine = Omit<RevenueByChargeTypeRow, 'month'> & { month: string };
const revenueColumn = dataTableColumns<RevenueLine>();
const revenueMoney = (key: Exclude<keyof RevenueLine, 'month'>, header: string) =>
  revenueColumn.accessor(key, { header, cell: (info) => money(info.getValue()) });
const revenueColumns = revenueColumn.columns([
  revenueColumn.accessor('month', { header: 'Month', cell: (info) => monthWords(info.getValue()) }),
  revenueMoney('rent', 'Rent'),
  revenueMoney('proratedRent', 'Prorated Rent'),
  revenueMoney('deposit', 'Deposit'),
  revenueMoney('adminFee', 'Admin Fee'),
  revenueMoney('lateFee', 'Late Fee'),
  revenueMoney('credit', 'Credit'),
  revenueMoney('adjustment', 'Adjustment'),
  revenueMoney('protection', 'Protection'),
  revenueMoney('discount', 'Promotions'),
  revenueMoney('merchandise', 'Merchandise'),
  revenueMoney('charged', 'Charged'),
  // Not revenue: collected for the taxing authority, shown apart.
  revenueMoney('tax', 'Sales Tax'),
  revenueMoney('voided', 'Voided'),
  revenueMoney('writtenOff', 'Written Off'),
  revenueMoney('net', 'Net'),
]);

/** What was charged per month by line kind, with voids and write-offs apart, over the last 12 months. */
export function RevenueByChargeTypeReport({ facilityId }: { facilityId: string | null }) {
  const report = useRevenueByChargeType(facilityId);
  const rows: RevenueLine[] | undefined = report.data && [...report.data.rows, { ...report.data.totals, month: 'Total' }];
  return (
    <ReportCard
      title="Revenue by Charge Type"
      testId="revenue-by-charge-type-report"
      csv={`/api/reports/revenue-by-charge-type.csv${reportQuery({ facilityId })}`}
    >
      <DataTable
        label="Revenue by charge type per month"
        className="ledger-table"
        compact
        columns={revenueColumns}
        rows={rows}
        getRowId={(row) => row.month}
        failure={report.isError ? { title: 'Could not load the revenue', error: report.error } : null}
        empty="Nothing charged"
      />
    </ReportCard>
  );
}

type SalesTaxLine = Omit<SalesTaxRow, 'facilityId' | 'kind'> & { id: string };
const salesTaxColumn = dataTableColumns<SalesTaxLine>();
const salesTaxColumns = salesTaxColumn.columns([
  salesTaxColumn.accessor('facility', { header: 'Facility', cell: (info) => info.getValue() ?? 'No facility' }),
  salesTaxColumn.accessor('kindLabel', { header: 'Charge' }),
  salesTaxColumn.accessor('billed', { header: 'Billed', cell: (info) => money(info.getValue()) }),
  salesTaxColumn.accessor('taxable', { header: 'Taxable', cell: (info) => money(info.getValue()) }),
  salesTaxColumn.accessor('tax', { header: 'Sales Tax', cell: (info) => money(info.getValue()) }),
]);

/** Sales tax billed per facility and taxable charge, over the invoices issued in the days chosen (default today). */
export function SalesTaxReport({ facilityId }: { facilityId: string | null }) {
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const report = useSalesTax(facilityId, from, to);
  const data = report.data;
  const rows: SalesTaxLine[] | undefined = data && [
    ...data.rows.map(({ facilityId: facility, kind, ...row }) => ({ ...row, id: `${facility ?? 'none'}-${kind}` })),
    ...(data.rows.length > 0 ? [{ ...data.totals, id: 'total', facility: 'Total', kindLabel: 'All charges' }] : []),
  ];
  return (
    <ReportCard
      title="Sales Tax"
      testId="sales-tax-report"
      csv={`/api/reports/sales-tax.csv${reportQuery({ facilityId, from: from ?? data?.from, to: to ?? data?.to })}`}
      controls={<DaysControl from={from ?? data?.from} to={to ?? data?.to} onFrom={setFrom} onTo={setTo} />}
      summary="By the day each invoice was issued, in its facility's time zone. Sales tax is owed to the taxing authority: it is not revenue."
    >
      <DataTable
        label="Sales tax per facility and charge"
        className="ledger-table"
        compact
        columns={salesTaxColumns}
        rows={rows}
        getRowId={(row) => row.id}
        failure={report.isError ? { title: 'Could not load the sales tax', error: report.error } : null}
        dimmed={report.isPlaceholderData}
        empty="No taxable charges issued in these days"
        rowTestId="sales-tax-row"
      />
    </ReportCard>
  );
}
