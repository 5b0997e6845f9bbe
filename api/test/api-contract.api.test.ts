import { randomUUID } from 'node:crypto';
import type { Access } from '@storage/api/http/access';
import { registerApiReference } from '@storage/api/http/openapi';
import { json } from '@storage/api/http/responses';
import { routeGroup } from '@storage/api/http/route-group';
import { registerRouteList } from '@storage/api/http/route-list';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import Fastify from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiOperations, routeKey, undeclaredRoutes } from './route-contracts.ts';

// The API's contract as the routes declare it: every route declares its schemas, the OpenAPI 3.1
// document at /api/openapi.json covers every route with its security and its errors, and the
// reference at /api/docs serves its page and its script from this server.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const SECURITY_OF: Record<Access, string[]> = {
  public: [],
  staff: ['staffSession'],
  portal: ['portalSession'],
  gateway: ['gatewayKey'],
  webhook: ['stripeSignature'],
};

type Operation = OpenAPIV3_1.OperationObject;
type Response = OpenAPIV3_1.ResponseObject;

/** `/api/customers/:id` as the document writes it: `/api/customers/{id}`. */
const documentPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** Every `$ref` in the value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => (key === '$ref' && typeof child === 'string' ? [child] : refsIn(child)));
}

describe('the API contract', () => {
  let platform: TestPlatform;
  let document: OpenAPIV3_1.Document;
  let operations: Array<{ key: string; access: Access; operation: Operation | undefined }>;

  beforeAll(async () => {
    platform = await startTestPlatform();
    const answer = await platform.api.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(answer.statusCode).toBe(200);
    document = answer.json();
    operations = apiOperations(platform.api.app.registeredRoutes).map((route) => ({
      key: routeKey(route),
      access: route.config?.access ?? 'staff',
      operation: document.paths?.[documentPath(route.url)]?.[route.method.toLowerCase() as (typeof METHODS)[number]],
    }));
  });
  afterAll(async () => {
    await platform?.close();
  });

  describe('route declarations', () => {
    it('every route declares its schema: a summary, what it answers, who may call it', () => {
      expect(operations.length).toBeGreaterThan(80);
      expect(undeclaredRoutes(platform.api.app.registeredRoutes)).toEqual([]);
    });

    it('notices a route that declares no schema, and one that declares no answer', async () => {
      const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
      registerRouteList(app);
      await registerApiReference(app);
      await app.register(async (plugin) => {
        const routes = routeGroup(plugin, { tag: 'Test', access: 'public' });
        routes.get('/api/declared', { schema: { summary: 'Declared', response: { 200: json('Yes', z.object({ ok: z.boolean() })) } } }, async () => ({
          ok: true,
        }));
        routes.get('/api/unanswered', { schema: { summary: 'No answer declared' } }, async () => ({ ok: true }));
      });
      app.get('/api/undeclared', async () => ({ ok: true }));
      await app.ready();
      expect(undeclaredRoutes(app.registeredRoutes)).toEqual(['GET /api/unanswered: no a success response', 'GET /api/undeclared: no schema']);
      await app.close();
    });
  });

  describe('the OpenAPI document', () => {
    it('is OpenAPI 3.1, served to anyone, with a security scheme for each way in', async () => {
      expect(document.openapi).toBe('3.1.0');
      expect(document.info.title).toBeTruthy();
      expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual(['gatewayKey', 'portalSession', 'staffSession', 'stripeSignature']);
      const schemes = document.components!.securitySchemes as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
      expect(schemes.staffSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'storage_session' });
      expect(schemes.gatewayKey).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(schemes.stripeSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'Stripe-Signature' });
    });

    it('has every registered route as an operation, and nothing else', () => {
      expect(operations.filter((o) => !o.operation).map((o) => o.key)).toEqual([]);
      const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
        METHODS.filter((method) => item?.[method]).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(documented.sort()).toEqual(operations.map((o) => o.key.replace(/:(\w+)/g, '{$1}')).sort());
    });

    it("gives each operation its route's security: who may call it", () => {
      const wrong = operations.filter(({ access, operation }) => {
        const schemes = (operation?.security ?? [{ missing: [] }]).flatMap((requirement) => Object.keys(requirement));
        return JSON.stringify(schemes) !== JSON.stringify(SECURITY_OF[access]);
      });
      expect(wrong.map((o) => `${o.key} (${o.access}): ${JSON.stringify(o.operation?.security)}`)).toEqual([]);
    });

    it('lists the errors of each operation, in the one error shape', () => {
      const wrong: string[] = [];
      for (const { key, access, operation } of operations) {
        const responses = (operation?.responses ?? {}) as Record<string, Response>;
        const statuses = Object.keys(responses);
        if (!statuses.some((s) => /^[23]\d\d$/.test(s))) wrong.push(`${key}: no success answer`);
        if (!statuses.includes('400')) wrong.push(`${key}: no 400`);
        if (['staff', 'portal', 'gateway'].includes(access) && !statuses.includes('401')) wrong.push(`${key} (${access}): no 401`);
        if (key.includes(':') && !statuses.includes('404')) wrong.push(`${key}: no 404`);
        if (/^(POST|PUT|PATCH|DELETE) /.test(key) && !statuses.includes('409')) wrong.push(`${key}: no 409`);
        for (const [status, response] of Object.entries(responses)) {
          if (!response.description) wrong.push(`${key} ${status}: no description`);
          const schema = response.content?.['application/json']?.schema as { $ref?: string } | undefined;
          if (/^4\d\d$/.test(status) && schema?.$ref !== '#/components/schemas/Error') {
            wrong.push(`${key} ${status}: not the error shape`);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(document.components?.schemas?.Error).toMatchObject({ type: 'object', required: ['message'] });
    });

    it("lists the roles and the 403 of a role's operation, and the 429 of a rate-limited one", () => {
      const { operation } = operations.find((o) => o.key === 'POST /api/facilities')!;
      expect(operation?.description).toContain('Roles: owner, manager.');
      expect(Object.keys(operation?.responses ?? {})).toContain('403');
      const limited = operations.find((o) => o.key === 'POST /api/public/reservations')!.operation;
      expect(((limited?.responses ?? {}) as Record<string, Response>)['429']?.description).toContain('20 per 10 minutes');
    });

    it('declares the path parameters, and every reference resolves', () => {
      const wrong: string[] = [];
      for (const { key, operation } of operations) {
        const declared = (operation?.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
        for (const [, name] of key.matchAll(/:(\w+)/g)) {
          if (!declared.some((p) => p.in === 'path' && p.name === name && p.required === true)) wrong.push(`${key}: path parameter ${name}`);
        }
      }
      for (const ref of refsIn(document)) {
        const name = ref.replace('#/components/schemas/', '');
        if (!ref.startsWith('#/components/schemas/') || !document.components?.schemas?.[name]) wrong.push(`unresolved ${ref}`);
      }
      expect(wrong).toEqual([]);
    });

    it('documents what a list answers in X-Total-Count, and a body that may be left out', () => {
      const list = operations.find((o) => o.key === 'GET /api/customers')!.operation;
      expect(((list?.responses ?? {}) as Record<string, Response>)['200']?.headers?.['x-total-count']).toMatchObject({ schema: { type: 'string' } });
      const convert = operations.find((o) => o.key === 'POST /api/reservations/:id/convert')!.operation;
      expect(convert?.requestBody).toMatchObject({ required: false });
      const create = operations.find((o) => o.key === 'POST /api/customers')!.operation;
      expect(create?.requestBody).toMatchObject({ required: true });
    });
  });

  describe('the reference at /api/docs', () => {
    it('serves a page with no inline script, and the script it loads, from this server', async () => {
      const page = await platform.api.app.inject({ method: 'GET', url: '/api/docs' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map(([, attributes]) => attributes?.match(/src="([^"]+)"/)?.[1]).filter(Boolean)).toEqual(['/api/docs/js/scalar.js']);
      // The other script element is a data block (settings and the document's address), never run.
      for (const [, attributes, body] of scripts) if (!attributes?.includes('src=')) expect({ attributes, body }).toMatchObject({ body: '' });
      expect(page.body).toContain('data-url="/api/openapi.json"');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).not.toContain("unsafe-inline' https");

      const script = await platform.api.app.inject({ method: 'GET', url: '/api/docs/js/scalar.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/^application\/javascript/);
      expect(script.body.length).toBeGreaterThan(100_000);
    });
  });

  describe('requests read through the declared schemas', () => {
    it('answers bad input with a 400 naming the field, in every part of a request', async () => {
      const owner = await platform.signIn('owner');
      const ask = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
        platform.api.app.inject({ method, url, headers: { cookie: owner }, ...(payload === undefined ? {} : { payload: payload as object }) });
      const cases: Array<[Awaited<ReturnType<typeof ask>>, { message: string; field?: string }]> = [
        [await ask('GET', '/api/customers?pageSize=500'), { message: 'pageSize: must be at most 200', field: 'pageSize' }],
        [await ask('GET', '/api/customers?colour=red'), { message: 'Unknown field: colour', field: 'colour' }],
        [await ask('GET', '/api/customers/not-an-id'), { message: expect.stringMatching(/^id: /), field: 'id' }],
        [await ask('POST', '/api/customers', { lastName: 'Doe', email: 'a@b.co' }), { message: 'firstName: is required', field: 'firstName' }],
        [await ask('POST', '/api/customers'), { message: 'The request body must be a JSON object' }],
        [await ask('POST', '/api/customers', [1]), { message: 'The request body must be a JSON object' }],
      ];
      for (const [response, expected] of cases) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual(expected);
      }
    });

    it('takes a body the route lets be left out as empty', async () => {
      const owner = await platform.signIn('owner');
      const cancel = await platform.api.app.inject({ method: 'POST', url: `/api/reservations/${randomUUID()}/cancel`, headers: { cookie: owner } });
      expect(cancel.statusCode, cancel.body).toBe(404);
    });

    it('refuses a caller who may not call the route before reading what they sent', async () => {
      const anonymous = await platform.api.app.inject({ method: 'POST', url: '/api/customers', payload: { bad: true } });
      expect(anonymous.statusCode).toBe(401);
      const clerk = await platform.signIn('clerk');
      const refused = await platform.api.app.inject({ method: 'POST', url: '/api/facilities', headers: { cookie: clerk }, payload: { bad: true } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'Only owner or manager accounts may do this' });
      const gateway = await platform.api.app.inject({ method: 'POST', url: '/api/locks/not-an-id/heartbeat', payload: { bad: true } });
      expect(gateway.statusCode).toBe(401);
    });
  });
});
