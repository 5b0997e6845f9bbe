import { ErrorAnswer } from '@storage/api/http/responses';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import fc from 'fast-check';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonAnswerSchema, type RouteContract, routeContracts } from './route-contracts.ts';

// Drives EVERY registered route with requests derived from the schemas it declares: valid shapes
// with real ids, and hostile mutations of them (NUL, lone surrogates, huge strings, wrong types,
// numbers as strings, extra keys, deep nesting, broken JSON), under an owner's, an auditor's, a
// renter's and no session. No answer may be a 5xx, no connection may drop, every refusal is
// `{ message, field? }` and every other JSON answer matches the schema the route declares for it.

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

// ---- hostile values -------------------------------------------------------------------------

const anyUtf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });
const poison = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800');
const hostileString = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800', '', ' ', '0', '-1', '1e400', 'NaN', 'null', 'true', '[]', '{}'),
  fc.constantFrom(
    '__proto__',
    'constructor',
    '../../etc/passwd',
    "' OR 1=1 --",
    '%00',
    '%ZZ',
    '\\',
    '9999-99-99',
    '2024-02-30',
    '-0.001',
    '1.005',
    '12345678901234567890.99',
  ),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'x'.repeat(n)),
  anyUtf16,
);
const deepNesting = fc.integer({ min: 1, max: 1_000 }).map((depth) => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
  deepNesting,
);

/** No lone surrogate can be percent-encoded: a URL carries U+FFFD in its place. */
const urlText = (value: unknown) => String(typeof value === 'object' && value !== null ? JSON.stringify(value) : value).replace(/[\uD800-\uDFFF]/g, '\uFFFD');

// ---- valid shapes from a contract -----------------------------------------------------------

function arbitraryOf(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, ids)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0]!, ids);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, fc.uuid());
      if (schema.format === 'date') return fc.integer({ min: -400, max: 400 }).map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
      if (schema.format === 'date-time') return fc.integer({ min: -400, max: 400 }).map((d) => new Date(Date.now() + d * 86_400_000).toISOString());
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
        } catch {
          // A pattern fast-check cannot generate from: any text will do.
        }
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    }
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 100_000, 1e9) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? arbitraryOf(schema.items, ids) : fc.string(), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, arbitraryOf(s, ids)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Valid-shaped values of the schema, and hostile mutations of them. */
function inputsOf(schema: z.ZodType | undefined, ids: readonly string[]): fc.Arbitrary<unknown> {
  const valid = schema ? arbitraryOf(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema, ids) : fc.constant({});
  const mutated = valid.chain((value) => {
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const keys = Object.keys(object);
    const mutations: Array<fc.Arbitrary<unknown>> = [
      fc.tuple(hostileString, hostileValue).map(([key, v]) => ({ ...object, [key]: v })),
      fc.constant(
        Object.fromEntries(
          Object.entries(object).map(([k, v]) => [k, typeof v === 'number' ? String(v) : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v]),
        ),
      ),
      hostileValue,
    ];
    if (keys.length > 0) {
      mutations.push(fc.tuple(fc.constantFrom(...keys), hostileValue).map(([key, v]) => ({ ...object, [key]: v })));
      // Text the database cannot store, in one field or appended to every text field.
      mutations.push(fc.tuple(fc.constantFrom(...keys), poison).map(([key, v]) => ({ ...object, [key]: v })));
      mutations.push(poison.map((p) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, typeof v === 'string' ? `${v}${p}` : v]))));
    }
    if (keys.length > 0) mutations.push(fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key))));
    return fc.oneof(...mutations);
  });
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: mutated });
}

interface Request {
  url: string;
  query: Record<string, string | string[]>;
  body: { json: unknown } | { raw: string; contentType: string } | null;
  idempotencyKey: string | null;
  remoteAddress: string;
}

function requestsOf(method: Method, pattern: string, contract: RouteContract, ids: readonly string[]): fc.Arbitrary<Request> {
  const params = inputsOf(contract.params, ids).map((value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {},
  );
  const url = params.map((values) => pattern.replace(/:(\w+)/g, (_whole, name: string) => encodeURIComponent(urlText(values[name] ?? ids[0]))));
  const query = (contract.query ? inputsOf(contract.query, ids) : fc.oneof(fc.constant({}), inputsOf(undefined, ids))).map((value) => {
    const entries = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [['q', value]];
    return Object.fromEntries(entries.filter(([, v]) => v !== undefined).map(([k, v]) => [urlText(k), Array.isArray(v) ? v.map(urlText) : urlText(v)]));
  });
  const body: fc.Arbitrary<Request['body']> = CHANGING.has(method)
    ? fc.oneof(
        { weight: 8, arbitrary: inputsOf(contract.body, ids).map((json) => ({ json })) },
        fc.constantFrom('{', 'null', '"x"', '[]', '{"a":', '\u0000', '{"a":1,"a":2}').map((raw) => ({ raw, contentType: 'application/json' })),
        fc.constantFrom('a=1', '<x/>').map((raw) => ({ raw, contentType: 'text/plain' })),
        fc.constant(null),
      )
    : fc.constant(null);
  return fc.record({
    url,
    query,
    body,
    idempotencyKey: fc.option(fc.oneof({ weight: 5, arbitrary: fc.uuid() }, fc.constantFrom('k-1', 'x'.repeat(200), 'x'.repeat(201))), { freq: 4 }),
    remoteAddress: fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map(([a, b]) => `10.77.${a}.${b}`),
  });
}

describe('every route, driven from its contract', () => {
  let platform: TestPlatform;
  let ids: string[] = [];
  const sessions: Record<string, () => Promise<string | undefined>> = {};
  let routes: Array<{ method: Method; url: string }>;
  let contracts: Map<string, RouteContract>;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
    const pool = platform.api.pool;
    const Row = z.object({ id: z.string() });
    for (const table of ['facilities', 'customers', 'units', 'leases', 'invoices', 'locks', 'reservations', 'notifications']) {
      ids.push(...(await pool.anyFirst(sql.type(Row)`SELECT id::text FROM ${sql.identifier([table])} ORDER BY id LIMIT 3`)));
    }
    // The renter whose portal session is used is not among the ids, so the owner's run leaves them be.
    const Renter = z.object({ id: z.string(), email: z.string(), phone: z.string() });
    const renter = await pool.one(sql.type(Renter)`SELECT id::text, email, phone FROM customers WHERE phone IS NOT NULL ORDER BY id DESC LIMIT 1`);
    ids = [...new Set(ids)].filter((id) => id !== renter.id);
    const renterSession = async () => {
      const verified = await platform.api.app.inject({
        method: 'POST',
        url: '/api/customer/verify',
        payload: { email: renter.email, phoneLast4: renter.phone.replace(/\D/g, '').slice(-4) },
      });
      if (verified.statusCode !== 200) throw new Error(`portal sign-in failed: ${verified.body}`);
      return sessionCookie(verified.headers['set-cookie']);
    };
    const [owner, auditor, renterCookie] = [await platform.signIn('owner'), await platform.signIn('auditor'), await renterSession()];
    sessions.owner = async () => owner;
    sessions.auditor = async () => auditor;
    sessions.renter = async () => renterCookie;
    sessions.anonymous = async () => undefined;
    sessions['fresh owner'] = () => platform.signIn('owner');
    sessions['fresh auditor'] = () => platform.signIn('auditor');
    sessions['fresh renter'] = renterSession;
    contracts = routeContracts(platform.api.app.registeredRoutes);
    routes = [...contracts.keys()].map((key) => {
      const [method, url] = key.split(' ') as [Method, string];
      return { method, url };
    });
  }, 300_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('drives the routes of every area', () => {
    expect(routes.length).toBeGreaterThan(80);
  });

  it('refuses text the database cannot store in every field of every route with a 400 naming it', async () => {
    const owner = await sessions.owner!();
    const wrong: string[] = [];
    let address = 0;
    for (const { method, url: pattern } of routes) {
      const contract = contracts.get(`${method} ${pattern}`);
      if (!contract || contract.endsSession) continue;
      const sample = (schema: z.ZodType | undefined) =>
        (schema
          ? fc.sample(arbitraryOf(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema, ids), { numRuns: 1, seed: 9 })[0]
          : {}) as Record<string, unknown>;
      const parts = { params: sample(contract.params), query: sample(contract.query), body: CHANGING.has(method) ? sample(contract.body) : undefined };
      const fields = (['params', 'query', 'body'] as const).flatMap((part) => {
        const schema = contract[part];
        const properties = schema ? ((z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema).properties ?? {}) : {};
        return Object.keys(properties).map((key) => [part, key] as const);
      });
      for (const [part, key] of fields) {
        for (const bad of part === 'body' ? ['a\u0000b', '\ud800'] : ['a\u0000b']) {
          const poisoned = { ...parts, [part]: { ...parts[part], [key]: bad } };
          const url = pattern.replace(/:(\w+)/g, (_w, name: string) => encodeURIComponent(String(poisoned.params[name] ?? ids[0])));
          const query = Object.fromEntries(Object.entries(poisoned.query).map(([k, v]) => [k, String(v)]));
          const response = await platform.api.app.inject({
            method,
            url,
            query,
            headers: { cookie: owner },
            remoteAddress: `10.78.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
            ...(poisoned.body === undefined ? {} : { payload: poisoned.body as object }),
          });
          const answer = response.statusCode === 400 ? (response.json() as { field?: string }) : {};
          if (answer.field !== key)
            wrong.push(`${method} ${pattern} ${part}.${key}=${JSON.stringify(bad)} → ${response.statusCode} ${response.body.slice(0, 100)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  for (const kind of ['owner', 'auditor', 'renter', 'anonymous'] as const) {
    it(`never answers 5xx nor drops the connection (${kind})`, async () => {
      const failures: string[] = [];
      for (const { method, url: pattern } of routes) {
        const contract = contracts.get(`${method} ${pattern}`);
        if (!contract) continue;
        const cookie = await sessions[contract.endsSession && kind !== 'anonymous' ? `fresh ${kind}` : kind]!();
        // An empty path parameter leads to another route (`/api/locks/` is the list): its answer is that route's.
        const thisRoute = new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}/?(\\?|$)`);
        const result = await fc.check(
          fc.asyncProperty(requestsOf(method, pattern, contract, ids), async (request) => {
            const headers: Record<string, string> = {};
            if (cookie) headers.cookie = cookie;
            if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
            if (request.body && 'raw' in request.body) headers['content-type'] = request.body.contentType;
            const payload = request.body === null ? undefined : 'raw' in request.body ? request.body.raw : JSON.stringify(request.body.json);
            if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
            const response = await platform.api.app.inject({
              method,
              url: request.url,
              query: request.query,
              payload,
              headers,
              remoteAddress: request.remoteAddress,
            });
            if (response.statusCode >= 500) throw new Error(`${response.statusCode} ${response.body.slice(0, 200)}`);
            // Every refusal has the one error shape; a success, the shape the route declares.
            const answer =
              response.statusCode >= 400 ? ErrorAnswer.strict() : thisRoute.test(request.url) ? jsonAnswerSchema(contract, response.statusCode) : undefined;
            if (answer && response.body && String(response.headers['content-type']).startsWith('application/json')) {
              const checked = answer.safeParse(response.json());
              if (!checked.success) throw new Error(`${response.statusCode} answer does not match its schema: ${z.prettifyError(checked.error).slice(0, 400)}`);
            }
          }),
          { numRuns: contract.runs ?? RUNS, endOnFailure: true },
        );
        if (result.failed) {
          const example = JSON.stringify(result.counterexample?.[0], (_k, v) =>
            typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v,
          );
          failures.push(`${method} ${pattern}: ${String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance)} ← ${example}`);
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);
  }
});
