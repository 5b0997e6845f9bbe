// The fetch helper of both front ends, the staff console and the customer portal: it must stay
// free of UI libraries, since the portal's landing page has a size budget.
//
// Every string the API answers with reaches the screens through here, so this is where bidi
// controls (a name's U+202E, which shows "invoice\u202Efdp.exe" as "invoiceexe.pdf") are shown
// inert: each is U+FFFD in the parsed body and in error messages (contracts text.ts). An edit form
// shows the U+FFFD too, and saving that field stores it in place of the control.

import { inertBidiControls, inertBidiControlsIn } from '@storage/contracts/text';

/** A response that is not ok, with the message spec section 7 prescribes: "status: response text (or status text)". */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `headers`: more request headers, e.g. an Idempotency-Key that makes a repeated submit harmless. */
export async function apiRequest(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
  const json = response.json.bind(response);
  response.json = async () => inertBidiControlsIn(await json());
  return response;
}

/** The server's own words for a failure: the `message` of a JSON error body, else the error's text. */
export function serverMessage(error: Error): string {
  return inertBidiControls(messageOf(error));
}

function messageOf(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  try {
    const parsed: unknown = JSON.parse(error.body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the body text is the message.
  }
  return error.body || error.message;
}
