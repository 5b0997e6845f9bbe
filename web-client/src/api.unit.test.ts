import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, serverMessage } from './api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function answering(status: number, body: string) {
  vi.stubGlobal('fetch', async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } }));
}

describe('apiRequest', () => {
  it('shows every bidi control in an answer as U+FFFD, wherever the string is, and keeps real right-to-left names', async () => {
    answering(200, JSON.stringify({ customer: { firstName: 'invoice\u202Efdp.exe', lastName: 'محمد' }, notes: ['\u2066a\u2069', 'plain'], count: 2 }));
    const body = await (await apiRequest('GET', '/api/customers/x')).json();
    expect(body).toEqual({ customer: { firstName: 'invoice\uFFFDfdp.exe', lastName: 'محمد' }, notes: ['\uFFFDa\uFFFD', 'plain'], count: 2 });
  });

  it('shows bidi controls in a refusal as U+FFFD too', async () => {
    answering(409, JSON.stringify({ message: 'Customer \u202Eab already exists' }));
    const error = await apiRequest('POST', '/api/customers', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(serverMessage(error as ApiError)).toBe('Customer \uFFFDab already exists');
  });
});
