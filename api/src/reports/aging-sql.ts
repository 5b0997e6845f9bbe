import type { AgingBucket } from '@storage/contracts/reports';
import { type FragmentSqlToken, sql } from 'slonik';

// The aging buckets' days past due, once for the Reports chart (a bucket per invoice) and the aging
// report (a column per bucket), so the two cannot put the same invoice in different buckets.

/** Each bucket's days past due, inclusive; null: no bound. */
const BUCKET_DAYS: Record<AgingBucket, readonly [number | null, number | null]> = {
  current: [null, 0],
  '1-30': [1, 30],
  '31-60': [31, 60],
  '61-90': [61, 90],
  '90+': [91, null],
};

/** Whether `past` (days past the due date, an integer expression) falls in `bucket`. */
export function pastDueIn(past: FragmentSqlToken, bucket: AgingBucket): FragmentSqlToken {
  const [from, to] = BUCKET_DAYS[bucket];
  if (from === null) return sql.fragment`${past} <= ${to!}`;
  if (to === null) return sql.fragment`${past} >= ${from}`;
  return sql.fragment`${past} BETWEEN ${from} AND ${to}`;
}

/** The bucket `past` (days past the due date) falls in. */
export function agingBucketOf(past: FragmentSqlToken): FragmentSqlToken {
  const buckets = Object.keys(BUCKET_DAYS) as AgingBucket[];
  return sql.fragment`CASE ${sql.join(
    buckets.map((bucket) => sql.fragment`WHEN ${pastDueIn(past, bucket)} THEN ${bucket}`),
    sql.fragment` `,
  )} END`;
}
