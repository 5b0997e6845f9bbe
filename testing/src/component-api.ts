// The API as the component tests answer it: an msw server in the test's own process, whose answers
// are each checked against the contract's schema of that answer when declared, so a fixture that
// drifts from the shape the real API writes fails the test that declares it.

import { ErrorAnswer } from '@storage/api/http/responses';
import { TOTAL_COUNT_HEADER } from '@storage/contracts/page-info';
import { delay, HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import type { z } from 'zod';

/** One server per test file; `testing/src/component-setup.ts` starts it, and resets its answers after each test. */
export const apiServer = setupServer();

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A request the screen sent to an answer: its query, its JSON body (undefined without one) and its headers (an Idempotency-Key). */
export type SentRequest = { search: URLSearchParams; body: unknown; headers: Headers };

/** An answer the API gives, with the requests it answered (in order), to check what the screen sent. */
export type Answer = { handler: RequestHandler; sent: SentRequest[] };

type Reply = { status?: number; headers?: Record<string, string> };

function answering(method: Method, path: string, respond: () => Response | Promise<Response>): Answer {
  const sent: SentRequest[] = [];
  const handler = http[method](path, async ({ request }) => {
    const text = await request.text();
    sent.push({ search: new URL(request.url).searchParams, body: text ? JSON.parse(text) : undefined, headers: request.headers });
    return respond();
  });
  return { handler, sent };
}

/**
 * `method path` answers `body`, which must satisfy `schema` (the contract's shape of that answer:
 * `Customer`, `z.array(Unit)`, …); a body it refuses fails here, naming what drifted.
 */
export function answer<S extends z.ZodType>(method: Method, path: string, schema: S, body: z.input<S>, reply: Reply = {}): Answer {
  checkFixture(method, path, schema, body);
  return answering(method, path, () => HttpResponse.json(body as never, { status: reply.status ?? (method === 'post' ? 201 : 200), headers: reply.headers }));
}

function checkFixture(method: Method, path: string, schema: z.ZodType, body: unknown): void {
  const checked = schema.safeParse(body);
  if (!checked.success) throw new Error(`The fixture for ${method.toUpperCase()} ${path} is not the contract's shape: ${checked.error.message}`);
}

/**
 * `method path` answers `body` (checked as `answer` checks it), but only once the test calls
 * `release()`: a request still on its way while the screen goes on. `arrived` settles when the
 * first request reaches it.
 */
export function heldAnswer<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  body: z.input<S>,
): Answer & { arrived: Promise<void>; release(): void } {
  checkFixture(method, path, schema, body);
  let release = () => {};
  let arrive = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const held = answering(method, path, async () => {
    arrive();
    await released;
    return HttpResponse.json(body as never, { status: method === 'post' ? 201 : 200 });
  });
  return { ...held, arrived, release: () => release() };
}

/** A page of a list (`GET path`): the rows, each an `item` of the contract, and the total in the paging header. */
export function answerPage<S extends z.ZodType>(path: string, item: S, rows: z.input<S>[], total = rows.length): Answer {
  return answer('get', path, (item as z.ZodType).array(), rows, { headers: { [TOTAL_COUNT_HEADER]: String(total) } });
}

/** `method path` answers 204 with no body. */
export function answerEmpty(method: Method, path: string): Answer {
  return answering(method, path, () => new HttpResponse(null, { status: 204 }));
}

/** `method path` refuses with the API's error answer (`{ message, field? }`, checked against its schema). */
export function refuse(method: Method, path: string, status: number, refusal: z.input<typeof ErrorAnswer>): Answer {
  ErrorAnswer.parse(refusal);
  return answering(method, path, () => HttpResponse.json(refusal, { status }));
}

/** `method path` never answers: the screen stays in its loading state for the whole test. */
export function neverAnswer(method: Method, path: string): Answer {
  return answering(method, path, async () => {
    await delay('infinite');
    return new HttpResponse(null, { status: 500 });
  });
}

/** Makes the server give these answers, ahead of any given before in the test. */
export function declareAnswers(...answers: Answer[]): void {
  apiServer.use(...answers.map((a) => a.handler));
}
