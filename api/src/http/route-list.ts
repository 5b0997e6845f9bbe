import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The route's pattern as registered, e.g. `/api/customers/:id`. */
  url: string;
  config: FastifyContextConfig | undefined;
  /** What the route declares it reads and answers (zod schemas), as the document shows it. */
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered (HEAD routes Fastify adds for GET ones included), for tests that must cover them all. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

/** Registered first, so it sees every route of every plugin. */
export function registerRouteList(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    // Read when asked: the plugin a route belongs to adds to its config and schema after this hook.
    for (const method of [route.method].flat())
      routes.push({
        method,
        url: route.url,
        get config() {
          return route.config;
        },
        get schema() {
          return route.schema;
        },
      });
  });
}
