import { ApiError } from '@storage/web-client/api';

// One Idempotency-Key per attempted request until it is answered: a clerk who sends the same
// payment again after an error (a lost connection, a server that died, even after closing the
// dialog or reloading the page) sends the same key, so the server finishes the first attempt
// instead of recording a second one. Another request (another amount, another renter) gets its
// own key, and so does the same one once the first succeeded: two equal payments are two payments.

const STORE = 'storage.pending-attempts';

type Pending = Record<string, { body: string; key: string }>;

/** Kept in the tab's session storage (a reload keeps it); in memory where that is not allowed. */
let memory: Pending = {};

function read(): Pending {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? '{}') as Pending;
  } catch {
    return memory;
  }
}

function write(pending: Pending): void {
  memory = pending;
  try {
    sessionStorage.setItem(STORE, JSON.stringify(pending));
  } catch {
    // Memory only: the key still holds for this page.
  }
}

/** The key of this attempt: the pending one when the same request was sent before without an answer, else a new one. */
export function attemptKey(scope: string, request: unknown): string {
  const body = JSON.stringify(request);
  const pending = read();
  const known = pending[scope];
  if (known && known.body === body) return known.key;
  const key = crypto.randomUUID();
  write({ ...pending, [scope]: { body, key } });
  return key;
}

/** The attempt was answered for good: a success, or a refusal that recorded nothing (a 4xx other than a 409 to retry). */
export function attemptSettled(scope: string, error?: unknown): void {
  if (error !== undefined && !(error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 409)) return;
  const { [scope]: _settled, ...rest } = read();
  write(rest);
}
