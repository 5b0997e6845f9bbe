import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { CONSOLE_PAGES, isPage, PORTAL_PAGES } from '@storage/contracts/pages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from './caller.ts';

// The console and the portal are two built apps; the server decides which one a path belongs
// to. `/` is the portal's landing page when signed out and the console's dashboard when in.
// A path that is no page of either gets the portal (its not-found page) with HTTP 404.
const CONSOLE_ONLY_PAGES = CONSOLE_PAGES.filter((page) => page !== '/');

/** `/api` and everything under it (any spelling of the prefix's case or a doubled slash included) belongs to the API. */
export function isApiPath(path: string): boolean {
  return /^\/+api(\/|$)/i.test(path);
}

export async function registerFrontEnds(app: FastifyInstance, roots: { console: string; portal: string }) {
  const [consoleIndex, portalIndex] = await Promise.all([
    readFile(join(roots.console, 'index.html'), 'utf8'),
    readFile(join(roots.portal, 'index.html'), 'utf8'),
  ]);
  // Fingerprinted assets never change under their name: cached for a year without revalidating.
  // Each has a brotli and a gzip copy made by the build (web-client/src/build/precompress.ts),
  // sent by the request's Accept-Encoding with `Content-Encoding` and `Vary: accept-encoding`;
  // a client that accepts neither gets the file itself.
  const served = { maxAge: '365d', immutable: true, preCompressed: true };
  await app.register(async (assets) => {
    assets.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await assets.register(fastifyStatic, { root: join(roots.console, 'console-assets'), prefix: '/console-assets/', ...served });
    await assets.register(fastifyStatic, { root: join(roots.portal, 'portal-assets'), prefix: '/portal-assets/', decorateReply: false, ...served });
  });

  const sendHtml = (reply: FastifyReply, html: string, status = 200) =>
    reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    // The API's unknown paths answer JSON 404 whatever the method: never the portal's HTML with a 200.
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(404).send({ message: 'Not Found' });
    if (isApiPath(path)) return reply.status(404).send({ message: 'Not Found' });
    if (path === '/') return sendHtml(reply, (await callerOf(request)).staffId ? consoleIndex : portalIndex);
    if (isPage(CONSOLE_ONLY_PAGES, path)) return sendHtml(reply, consoleIndex);
    if (isPage(PORTAL_PAGES, path)) return sendHtml(reply, portalIndex);
    return sendHtml(reply, portalIndex, 404);
  });
}
