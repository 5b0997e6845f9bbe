import { toCsv } from '@storage/contracts/csv';
import { pageHeaders } from '@storage/contracts/paging';
import {
  AgingReport,
  AsOfQuery,
  PaymentsByMethod,
  PaymentsByMethodQuery,
  RentRoll,
  RentRollQuery,
  type ReportKind,
  ReportsOverview,
  ReportsQuery,
  RevenueByChargeType,
  RevenueByChargeTypeQuery,
  reportDownloads,
  SalesTaxQuery,
  SalesTaxReport,
} from '@storage/contracts/reports';
import type { FastifyInstance } from 'fastify';
import type { DatabasePool } from 'slonik';
import type { z } from 'zod';
import { isoDay } from '../dashboard/month-over-month.ts';
import type { AppDeps } from '../deps.ts';
import { file, json, pageWithFigures } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { ledgerAging, ledgerRentRoll, paymentsByMethod, rentRollPage, revenueByChargeType } from './ledger-reports.ts';
import { reportsOverview } from './queries.ts';
import { salesTaxReport } from './sales-tax.ts';

type Csv = { header: string[]; rows: Array<Array<string | number | null>> };
type CsvQuery = { facilityId?: string | undefined; from?: string | undefined; to?: string | undefined; asOf?: string | undefined };

const csvReports: Record<ReportKind, (pool: DatabasePool, query: CsvQuery, now: Date) => Promise<Csv>> = {
  'rent-roll': async (pool, query, now) => {
    const roll = await ledgerRentRoll(pool, query, now);
    return {
      header: [
        'Facility',
        'Building',
        'Unit',
        'Size',
        'Customer',
        'Email',
        'Phone',
        'Lease Start',
        'Monthly Rate',
        'Street Rate',
        'Rate Paid',
        'Promotion',
        'Deposit',
        'Billed Through',
        'Current Period Start',
        'Current Period End',
        'Renter Balance',
        'Days Past Due',
      ],
      rows: roll.rows.map((r) => [
        r.facility,
        r.building,
        r.unitNumber,
        r.size,
        r.customer,
        r.email,
        r.phone,
        r.leaseStart,
        r.monthlyRate,
        r.streetRate,
        r.ratePaid,
        r.promotion,
        r.deposit,
        r.billedThrough,
        r.currentPeriod?.start ?? null,
        r.currentPeriod?.end ?? null,
        r.balance,
        r.daysPastDue,
      ]),
    };
  },
  aging: async (pool, query, now) => {
    const aging = await ledgerAging(pool, query, now);
    const amounts = (a: AgingReport['totals']) => [a.current, a.days1to30, a.days31to60, a.days61to90, a.days90plus, a.credit, a.balance, a.unreconciled];
    return {
      header: ['Customer', 'Email', 'Facility', 'Current', '1-30 Days', '31-60 Days', '61-90 Days', '90+ Days', 'Credit', 'Balance', 'Unreconciled'],
      rows: [...aging.rows.map((r) => [r.customer, r.email, r.facility, ...amounts(r)]), ['Total', null, null, ...amounts(aging.totals)]],
    };
  },
  'payments-by-method': async (pool, query, now) => {
    const report = await paymentsByMethod(pool, query, now);
    const figures = (r: PaymentsByMethod['totals']) => [r.payments, r.paid, r.refunds, r.refunded, r.total];
    return {
      header: ['Date', 'Method', 'Payments', 'Paid', 'Refunds', 'Refunded', 'Total'],
      rows: [
        ...report.rows.map((r) => [r.date, r.methodLabel, ...figures(r)]),
        ...report.methods.map((m) => [`${report.from} – ${report.to}`, m.methodLabel, ...figures(m)]),
        [`${report.from} – ${report.to}`, 'All methods', ...figures(report.totals)],
      ],
    };
  },
  'revenue-by-charge-type': async (pool, query, now) => {
    const report = await revenueByChargeType(pool, query, now);
    const figures = (r: RevenueByChargeType['totals']) => [
      r.rent,
      r.proratedRent,
      r.deposit,
      r.adminFee,
      r.lateFee,
      r.credit,
      r.adjustment,
      r.protection,
      r.discount,
      r.merchandise,
      r.charged,
      r.tax,
      r.voided,
      r.writtenOff,
      r.net,
    ];
    return {
      header: [
        'Month',
        'Rent',
        'Prorated Rent',
        'Deposit',
        'Admin Fee',
        'Late Fee',
        'Credit',
        'Adjustment',
        'Protection',
        'Promotions',
        'Merchandise',
        'Charged',
        'Sales Tax',
        'Voided',
        'Written Off',
        'Net',
      ],
      rows: [...report.rows.map((r) => [r.month, ...figures(r)]), ['Total', ...figures(report.totals)]],
    };
  },
  'sales-tax': async (pool, query, now) => {
    const report = await salesTaxReport(pool, query, now);
    return {
      header: ['From', 'To', 'Facility', 'Charge', 'Billed', 'Taxable', 'Sales Tax'],
      rows: [
        ...report.rows.map((r) => [report.from, report.to, r.facility, r.kindLabel, r.billed, r.taxable, r.tax]),
        [report.from, report.to, 'Total', null, report.totals.billed, report.totals.taxable, report.totals.tax],
      ],
    };
  },
  occupancy: async (pool, { facilityId }, now) => ({
    header: ['Month', 'Total Units', 'Occupied Units', 'Occupancy Rate (%)', 'Move-ins', 'Move-outs'],
    rows: (await reportsOverview(pool, facilityId, isoDay(now))).occupancyByMonth.map((m) => [
      m.month,
      m.totalUnits,
      m.occupiedUnits,
      m.occupancyRate === null ? null : m.occupancyRate.toFixed(1),
      m.moveIns,
      m.moveOuts,
    ]),
  }),
  revenue: async (pool, { facilityId }, now) => ({
    header: ['Month', 'Payments', 'Revenue'],
    rows: (await reportsOverview(pool, facilityId, isoDay(now))).revenueByMonth.map((m) => [m.month, m.payments, m.revenue]),
  }),
};

/** The query each CSV download takes: a date range for the reports of a range. */
const csvQueries: Record<ReportKind, z.ZodType<CsvQuery>> = {
  'rent-roll': AsOfQuery,
  aging: AsOfQuery,
  'payments-by-method': PaymentsByMethodQuery,
  'revenue-by-charge-type': RevenueByChargeTypeQuery,
  'sales-tax': SalesTaxQuery,
  occupancy: ReportsQuery,
  revenue: ReportsQuery,
};

export async function reportRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Reports', access: 'staff' });

  app.get(
    '/api/reports/overview',
    {
      schema: {
        summary: 'Reports overview',
        description: 'Revenue, occupancy, receivables aging, days to fill and payment success over the last 12 months.',
        querystring: ReportsQuery,
        response: { 200: json('The figures', ReportsOverview) },
      },
    },
    async (request) => reportsOverview(deps.pool, request.query.facilityId, isoDay(deps.clock.now())),
  );

  app.get(
    '/api/reports/rent-roll',
    {
      schema: {
        summary: 'Rent roll',
        description:
          "Every active lease of the scope's units: the rent period that holds today, how far its rent is invoiced, the rate in effect, the renter's balance by the ledger and days past due; with an earlier `asOf`, the leases and figures as they stood at the end of that day.",
        querystring: RentRollQuery,
        response: { 200: pageWithFigures('A page of the rent roll, with the figures of the whole scope', RentRoll) },
      },
    },
    async (request, reply) => {
      const { roll, paging } = await rentRollPage(deps.pool, request.query, deps.clock.now());
      return reply.headers(pageHeaders(paging)).send(roll);
    },
  );

  app.get(
    '/api/reports/aging',
    {
      schema: {
        summary: 'Aging receivables per renter',
        description:
          "Each renter's open invoices by days past due (current, 1–30, 31–60, 61–90, 90+), their unapplied credit, and their ledger balance; today, or as they stood at the end of an earlier `asOf`.",
        querystring: AsOfQuery,
        response: { 200: json('The aging', AgingReport) },
      },
    },
    async (request) => ledgerAging(deps.pool, request.query, deps.clock.now()),
  );

  app.get(
    '/api/reports/payments-by-method',
    {
      schema: {
        summary: 'Payments by method per day',
        description: "The end-of-day report: money in per day and method (refunds negative), from `from` to `to` (default today in the facility's zone).",
        querystring: PaymentsByMethodQuery,
        response: { 200: json('The payments', PaymentsByMethod) },
      },
    },
    async (request) => paymentsByMethod(deps.pool, request.query, deps.clock.now()),
  );

  app.get(
    '/api/reports/revenue-by-charge-type',
    {
      schema: {
        summary: 'Revenue by charge type',
        description: 'Per month, the invoice lines charged by kind, with voids and write-offs apart (default: the last 12 months).',
        querystring: RevenueByChargeTypeQuery,
        response: { 200: json('The revenue', RevenueByChargeType) },
      },
    },
    async (request) => revenueByChargeType(deps.pool, request.query, deps.clock.now()),
  );

  app.get(
    '/api/reports/sales-tax',
    {
      schema: {
        summary: 'Sales tax',
        description:
          "Per facility and taxable charge kind, over the invoices issued from `from` to `to` (the facility's dates; default today): what was billed, what of it carried sales tax, and the tax billed.",
        querystring: SalesTaxQuery,
        response: { 200: json('The sales tax', SalesTaxReport) },
      },
    },
    async (request) => salesTaxReport(deps.pool, request.query, deps.clock.now()),
  );

  for (const { kind, title } of reportDownloads) {
    const build = csvReports[kind];
    app.get(
      `/api/reports/${kind}.csv`,
      {
        schema: {
          summary: `Download the ${title} report`,
          querystring: csvQueries[kind],
          response: { 200: file(`The ${title} report as of today, as CSV`, 'text/csv') },
        },
      },
      async (request, reply) => {
        const now = deps.clock.now();
        const today = isoDay(now);
        const { header, rows } = await build(deps.pool, request.query as CsvQuery, now);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${kind}-${(request.query as CsvQuery).asOf ?? today}.csv"`)
          .header('cache-control', 'no-store')
          .send(toCsv(header, rows));
      },
    );
  }
}
