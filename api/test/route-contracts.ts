// What each route reads and answers, as it declares them itself (its zod schemas), for the tests
// that must cover every route: the generative test drives each one from its schemas, and the
// contract test fails for a route that declares none.

import type { RegisteredRoute } from '@storage/api/http/route-list';
import type { z } from 'zod';

export interface RouteContract {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The route's declared answers by status: a zod schema, or `{ content: { [mediaType]: { schema } } }`. */
  response: Record<string, unknown>;
  /** Fewer runs for a route whose every success is costly (a read-model rebuild). */
  runs?: number;
  /** The route ends the caller's session: driven with a throwaway session of the same kind. */
  endsSession?: boolean;
}

/** What the generative test must know of a route beyond what it declares. */
const DRIVING: Record<string, Pick<RouteContract, 'runs' | 'endsSession'>> = {
  'GET /api/logout': { endsSession: true },
  'POST /api/auth/logout': { endsSession: true },
  'POST /api/logout': { endsSession: true },
  'POST /api/customer/sign-out': { endsSession: true },
  'POST /api/read-model/rebuild': { runs: 1 },
  'POST /api/read-model/verify': { runs: 1 },
};

/** Routes served for people rather than programs: the API reference's page and its script, the apps' assets. */
export const NOT_API_OPERATIONS = ['GET /api/docs/', 'GET /api/docs/js/scalar.js', 'GET /console-assets/*', 'GET /portal-assets/*'];

export const routeKey = (route: Pick<RegisteredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** The routes a client calls (HEAD and OPTIONS answer for the GET ones). */
export const apiOperations = (routes: readonly RegisteredRoute[]) =>
  routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !NOT_API_OPERATIONS.includes(routeKey(r)));

/**
 * What is missing from each route's declaration, one line per route: a schema, a summary, at
 * least one success answer, who may call it. Empty when every route declares itself.
 */
export function undeclaredRoutes(routes: readonly RegisteredRoute[]): string[] {
  return apiOperations(routes).flatMap((route) => {
    const { schema, config } = route;
    if (!schema) return [`${routeKey(route)}: no schema`];
    const missing = [
      ...(schema.summary ? [] : ['summary']),
      ...(Object.keys((schema.response ?? {}) as object).some((status) => /^[23]\d\d$/.test(status)) ? [] : ['a success response']),
      ...(config?.access ? [] : ['access']),
    ];
    return missing.length > 0 ? [`${routeKey(route)}: no ${missing.join(', ')}`] : [];
  });
}

/** Each route's contract, from its declared schemas. */
export function routeContracts(routes: readonly RegisteredRoute[]): Map<string, RouteContract> {
  return new Map(
    apiOperations(routes).map((route) => {
      const schema = route.schema ?? {};
      const contract: RouteContract = {
        params: schema.params as z.ZodType | undefined,
        query: schema.querystring as z.ZodType | undefined,
        body: schema.body as z.ZodType | undefined,
        response: (schema.response ?? {}) as Record<string, unknown>,
        ...DRIVING[routeKey(route)],
      };
      return [routeKey(route), contract];
    }),
  );
}

/** The zod schema a route declares for a JSON answer of this status, if any. */
export function jsonAnswerSchema(contract: RouteContract, status: number): z.ZodType | undefined {
  const declared = contract.response[String(status)] as { content?: Record<string, { schema: z.ZodType }> } | z.ZodType | undefined;
  if (!declared) return undefined;
  if ('content' in declared && declared.content) return declared.content['application/json']?.schema;
  return declared as z.ZodType;
}
