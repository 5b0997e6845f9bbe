// Money is exact: amounts travel as decimal strings ("120.00") and are computed in integer cents.
// The arithmetic and the dollar formatting, free of zod, so the apps' first screens format amounts
// without loading the schema library (money.ts holds the schemas and re-exports these).

export function toCents(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`Not an amount: ${amount}`);
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -cents : cents;
}

export function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** "$1,234.50" — US dollars with thousands separators, from a decimal string. */
export function formatDollars(amount: string): string {
  const cents = toCents(amount);
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
}
