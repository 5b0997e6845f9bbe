// The session cookie of a benchmark's sign-in: the benchmarks that drive the API as staff send it back.
import { SESSION_COOKIE } from '@storage/api/plugins/session';

/**
 * The `name=value` of the session cookie among a sign-in's Set-Cookie headers, as a browser sends
 * it back. The sign-in sets other cookies too (the device it remembers, first), so the first
 * header is not the session's.
 */
export function sessionCookie(setCookie: string | string[] | number | undefined): string {
  const header = [setCookie ?? []]
    .flat()
    .map(String)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error('the sign-in set no session cookie');
  return header.split(';')[0]!;
}
