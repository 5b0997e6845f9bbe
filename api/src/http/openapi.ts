import { readFileSync } from 'node:fs';
import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import scalarReference from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifySchema, FastifySerializerCompiler, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { SESSION_COOKIE } from '../plugins/session.ts';
import { type Access, accessOf, CHANGING_METHODS, refusesReadOnlyRoles, rolesRefusal } from './access.ts';
import { errorAnswer, json } from './responses.ts';
import { acceptsMissing, validatorCompiler } from './validate.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** The body of a route that reads it raw (to check a signature over its bytes): documented, not validated. */
    rawBody?: z.ZodType;
  }
}

const OPENAPI_PATH = '/api/openapi.json';
const DOCS_PATH = '/api/docs';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  staffSession: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      "A staff member's session: the HttpOnly cookie POST /api/auth/login sets. Some operations are for some roles only (owner, manager, clerk); auditors read everything and change nothing but their own password.",
  },
  portalSession: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: "A renter's portal session: the same cookie, set by POST /api/customer/verify (the email and the last 4 digits of the phone on file).",
  },
  gatewayKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A facility's lock-gateway key, sent as `Authorization: Bearer <key>`. An owner issues (and rotates) it with POST /api/facilities/{id}/gateway-key.",
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature of the raw request body, checked with STRIPE_WEBHOOK_SECRET.",
  },
};

const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  public: [],
  staff: [{ staffSession: [] }],
  portal: [{ portalSession: [] }],
  gateway: [{ gatewayKey: [] }],
  webhook: [{ stripeSignature: [] }],
};

const UNAUTHORIZED: Partial<Record<Access, string>> = {
  staff: 'Not signed in as staff, or the session has ended.',
  portal: 'No portal session: verify with POST /api/customer/verify first.',
  gateway: 'The gateway key is missing or is not a current key (the answer carries `WWW-Authenticate: Bearer`).',
};

const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .optional()
    .describe(
      'Makes a retry safe: the first request with a key runs, a repeat gets the first answer back (with `Idempotent-Replayed: true`) and changes nothing. A key belongs to its caller and lasts 24 hours.',
    ),
});

const DESCRIPTION = `The API of the self-storage operations platform: the staff console, the renters' portal, the public rental pages, the lock gateways and the payment provider all use it.

**Sign-in.** Staff sign in with \`POST /api/auth/login\` (email and password); renters open a portal session with \`POST /api/customer/verify\` (email and the last 4 digits of their phone). Both set the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax), which the browser then sends. Lock gateways send their facility's key as a bearer token; Stripe signs its webhooks.

**Errors.** Every 4xx answer is \`{ "message": "…", "field": "…" }\`: the message is for a person, and bad input names the field first (\`"email: is required"\`, \`"Unknown field: foo"\`), with \`field\` set to it. A server failure (500) says only \`Internal Server Error\`.

**Lists** answer a JSON array; the number of all that match the filter is in the \`X-Total-Count\` header.

**Retries.** A change sent with an \`Idempotency-Key\` header runs once, however often it is sent.`;

/**
 * Answers are written as the handler made them: a response schema documents the answer (and
 * types the handler) but neither reshapes nor refuses it, so a field the schema does not name
 * is never dropped and a schema that lags behind never turns a working answer into a 500. The
 * generative test checks every route's answers against its response schemas instead.
 */
const serializerCompiler: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

const zodTransform = createJsonSchemaTransform({ skipList: [] });

/** The errors a route gives by what it is (who may call it, its parameters, whether it changes something), beside those it declares. */
function standardErrors(route: RouteOptions, schema: FastifySchema): Record<number, string> {
  const method = [route.method].flat()[0]!;
  const config = route.config;
  const access = accessOf(config);
  const changing = CHANGING_METHODS.has(method);
  const errors: Record<number, string> = {
    400: 'Bad input: the message names the field (`"field: what is wrong"`), and so does `field`.',
  };
  if (UNAUTHORIZED[access]) errors[401] = UNAUTHORIZED[access];
  const refusals = [
    ...(refusesReadOnlyRoles(method, config) ? ['Auditors have read-only access.'] : []),
    ...(config?.roles ? [`${rolesRefusal(config.roles)}.`] : []),
  ];
  if (refusals.length > 0) errors[403] = `Refused for the caller's role. ${refusals.join(' ')}`;
  if (route.url.includes(':')) errors[404] = 'Nothing has this id (or it is not yours to see).';
  // A route that takes larger bodies (a gateway's batch) says its own limit.
  if (schema.body || schema.rawBody) errors[413] = `The request body is larger than ${route.bodyLimit === undefined ? 64 : route.bodyLimit / 1024} KiB.`;
  if (changing) {
    errors[409] = 'The change conflicts with the current state, or a request with the same Idempotency-Key is still being processed.';
    if (config?.idempotent !== false) errors[422] = 'The Idempotency-Key was already used for a different request.';
  }
  const rateLimit = config?.rateLimit;
  if (rateLimit && typeof rateLimit === 'object' && 'max' in rateLimit) {
    errors[429] = `Too many requests: at most ${String(rateLimit.max)} per ${String(rateLimit.timeWindow)}.`;
  }
  return errors;
}

/** Marks an operation whose body may be left out (@fastify/swagger takes every body as required). */
const OPTIONAL_BODY = 'x-optional-body';

/** Adds to each route's own schema what the document says of every route: its security, its errors, the Idempotency-Key header. */
const documentRoute: SwaggerTransform = (input) => {
  const { schema: declared, route } = input;
  if (!declared || declared.hide) return zodTransform(input);
  const { rawBody, ...schema } = declared;
  const method = [route.method].flat()[0]!;
  const access = accessOf(route.config);
  const ownResponses = (schema.response ?? {}) as Record<string, unknown>;
  const errors = Object.fromEntries(Object.entries(standardErrors(route, declared)).map(([status, description]) => [status, errorAnswer(description)]));
  const roles = route.config?.roles ? `Roles: ${route.config.roles.join(', ')}.` : undefined;
  const documented = zodTransform({
    ...input,
    schema: {
      ...schema,
      ...(rawBody ? { body: rawBody } : {}),
      description: [schema.description, roles].filter(Boolean).join('\n\n') || undefined,
      security: SECURITY[access],
      response: { ...ownResponses, ...Object.fromEntries(Object.entries(errors).filter(([status]) => !(status in ownResponses))) },
      ...(CHANGING_METHODS.has(method) && route.config?.idempotent !== false && !schema.headers ? { headers: IdempotencyHeaders } : {}),
      ...(schema.body && acceptsMissing(schema.body as z.ZodType) ? { [OPTIONAL_BODY]: true } : {}),
    },
  });
  // Response headers (X-Total-Count) ride beside the content, where the zod transform leaves them out.
  const responses = documented.schema.response as Record<string, Record<string, unknown>>;
  for (const [status, own] of Object.entries(ownResponses)) {
    const headers = (own as { headers?: Record<string, z.ZodType> }).headers;
    if (headers && responses[status]) {
      responses[status].headers = Object.fromEntries(
        Object.entries(headers).map(([name, header]) => {
          const { $schema: _dialect, ...json } = z.toJSONSchema(header, { io: 'output' });
          return [name, json];
        }),
      );
    }
  }
  return documented;
};

/** The components the operations refer to (zod's registry holds the input side of each too, which nothing refers to). */
const documentObject: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as OpenAPIV3_1.Document;
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations ?? {}) as Array<OpenAPIV3_1.OperationObject & { [OPTIONAL_BODY]?: true }>) {
      if (!operation?.[OPTIONAL_BODY]) continue;
      delete operation[OPTIONAL_BODY];
      if (operation.requestBody && 'content' in operation.requestBody) operation.requestBody.required = false;
    }
  }
  const text = JSON.stringify(document.paths);
  const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => text.includes(`"#/components/schemas/${name}"`)));
  return { ...document, components: { ...document.components, schemas } };
};

/**
 * Routes declare their requests and answers with the contracts' zod schemas (see routeGroup);
 * Fastify validates requests with them, and the OpenAPI 3.1 document at /api/openapi.json is
 * built from them, browsable at /api/docs. Registered before the routes, so it sees them all.
 */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Self-storage operations API', version, description: DESCRIPTION },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    transformObject: documentObject,
  });

  app.get(
    OPENAPI_PATH,
    {
      config: { access: 'public' },
      schema: {
        tags: ['Reference'],
        summary: 'The OpenAPI document',
        description: 'This document: every operation of the API, its input, its answers and errors, and who may call it.',
        response: { 200: json('An OpenAPI 3.1 document', z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })) },
      },
    },
    async () => app.swagger(),
  );

  await app.register(async (reference) => {
    reference.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
      // Scalar's own page starts the reference with an inline script, which the Content
      // Security Policy refuses: this page has none (the script reads its settings from the data block).
      if (route.url === `${DOCS_PATH}/`) route.handler = async (_request, reply) => reply.type('text/html; charset=utf-8').send(REFERENCE_PAGE);
    });
    // The script (5 MB) changes only with the package: no need to fetch it on every visit.
    reference.addHook('onSend', async (request, reply, payload) => {
      if (request.routeOptions.url?.endsWith('.js')) reply.header('cache-control', 'public, max-age=3600');
      return payload;
    });
    await reference.register(scalarReference, { routePrefix: DOCS_PATH, configuration: { url: OPENAPI_PATH }, logLevel: 'warn' });
  });
}

const escapeAttribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

// Everything the page loads comes from this server: no web fonts, no telemetry, no AI agent.
const REFERENCE_SETTINGS = {
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json',
  persistAuth: false,
};

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API reference · Self-storage operations</title><link rel="icon" href="data:,"></head>
<body>
<script id="api-reference" type="application/json" data-url="${OPENAPI_PATH}" data-configuration="${escapeAttribute(JSON.stringify(REFERENCE_SETTINGS))}"></script>
<script src="${DOCS_PATH}/js/scalar.js"></script>
</body>
</html>`;
