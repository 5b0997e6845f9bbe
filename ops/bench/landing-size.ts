import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiServer } from '@storage/api/server';
import { registerStaff } from '@storage/domain/auth/staff';
import { readConfig } from '@storage/platform/config';
import { queueConnection } from '@storage/platform/queues';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo } from '@storage/projector/runner';
import { startProjector } from '@storage/projector/service';
import { DEMO_STAFF, seedDemoData } from '@storage/seed/demo';
import { load, machine, startRun, targetMissed } from './measure.ts';

// `npm run bench:landing` (after `npm run build`): the bytes a first visit downloads, as they go
// over the wire. The product as `npm start` serves it (the API with the built console and portal,
// the projector, the demo data) on a throwaway database on the server of DATABASE_URL, else
// TEST_POSTGRES_URL, else the local PostgreSQL; Chromium loads each page with an empty cache and
// every response's encoded body size is summed (what was sent), by kind.
// - the portal's landing page `/`, signed out: its JavaScript as sent, target 80 KB;
// - the console's first signed-in route: the demo owner signed in opens `/` (the dashboard),
//   everything it downloads until the network is idle (page, scripts, styles, API answers),
//   target 300 KB.
// The peer, in the same run: the same pages loaded with `Accept-Encoding: identity`, which is what
// went over the wire before the assets and answers were compressed.
// `--demo-from DB` starts on a copy of a database of the same server that holds the demo and its
// read model (one `bench:seed --keep` left, say) instead of seeding one; `--files` lists every response.

const LANDING_JS_TARGET_KB = 80;
const DASHBOARD_TARGET_KB = 300;
const DEMO_PASSWORD = 'demo1234';

// The throwaway database goes where the brief's order says; the test helpers read TEST_POSTGRES_URL when loaded.
if (process.env.DATABASE_URL) process.env.TEST_POSTGRES_URL = process.env.DATABASE_URL;
const { createTestDatabase } = await import('@storage/testing/database');
const { builtFrontEnds, launchChromium } = await import('@storage/testing/browser');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const { values } = parseArgs({ options: { files: { type: 'boolean', default: false }, 'demo-from': { type: 'string' } } });
const verbose = values.files;
const demoFrom = values['demo-from'];
const run = startRun('landing', { files: verbose, demoFrom });

for (const [app, root] of Object.entries(builtFrontEnds)) {
  const assets = join(root, `${app}-assets`);
  if (!existsSync(join(root, 'index.html')) || !existsSync(assets)) {
    console.error(`No ${app} build in ${resolve(root)}: run \`npm run build\` first.`);
    process.exit(1);
  }
  if (!readdirSync(assets).some((file) => file.endsWith('.br'))) {
    console.error(`The ${app} build has no precompressed assets: run \`npm run build\` again.`);
    process.exit(1);
  }
}

type Kind = 'document' | 'script' | 'stylesheet' | 'api' | 'other';
interface Download {
  url: string;
  kind: Kind;
  sent: number;
  uncompressed: number;
  encoding: string;
}
type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Page = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['newPage']>>;

function kindOf(resourceType: string, url: string): Kind {
  if (resourceType === 'document') return 'document';
  if (resourceType === 'script') return 'script';
  if (resourceType === 'stylesheet') return 'stylesheet';
  if (new URL(url).pathname.startsWith('/api/')) return 'api';
  return 'other';
}

/** Loads a page in a new context (empty cache) and lists every response of our server: encoded (sent) and decoded sizes. */
async function visit(
  browser: Browser,
  baseUrl: string,
  acceptEncoding: string,
  open: (page: Page) => Promise<void>,
  before?: (request: Awaited<ReturnType<Browser['newContext']>>['request']) => Promise<void>,
): Promise<Download[]> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-encoding': acceptEncoding } });
  try {
    if (before) await before(context.request);
    const page = await context.newPage();
    const downloads: Promise<Download | null>[] = [];
    page.on('requestfinished', (request) => {
      downloads.push(
        (async () => {
          if (!request.url().startsWith(baseUrl)) return null;
          const response = await request.response();
          if (!response) return null;
          const sizes = await request.sizes();
          const body = await response.body().catch(() => Buffer.alloc(0));
          return {
            url: request.url().slice(baseUrl.length),
            kind: kindOf(request.resourceType(), request.url()),
            sent: sizes.responseBodySize,
            uncompressed: body.length,
            encoding: (await response.headerValue('content-encoding')) ?? 'identity',
          };
          // A request that finishes after the page went idle is still being read when the context
          // closes: it is not part of the load measured, and its read must not end the process.
        })().catch(() => null),
      );
    });
    await open(page);
    await page.waitForLoadState('networkidle');
    return (await Promise.all(downloads)).filter((d): d is Download => d !== null);
  } finally {
    await context.close();
  }
}

const sum = (downloads: Download[], field: 'sent' | 'uncompressed', kinds?: Kind[]) =>
  downloads.filter((d) => !kinds || kinds.includes(d.kind)).reduce((total, d) => total + d[field], 0);

/** Bytes as sent and the peer's (identity), by kind, as printed and as the results file keeps them. */
function report(title: string, compressed: Download[], peer: Download[], verbose: boolean): Record<string, unknown> {
  const byKind: Record<string, unknown> = {};
  console.log(`\n${title}`);
  if (verbose) {
    for (const d of [...compressed].sort((a, b) => b.sent - a.sent)) {
      console.log(`  ${kb(d.sent).padStart(10)} sent (${d.encoding.padEnd(8)}) ${kb(d.uncompressed).padStart(10)} uncompressed  ${d.kind.padEnd(10)} ${d.url}`);
    }
  }
  console.log(`  ${'kind'.padEnd(11)} ${'files'.padStart(5)} ${'as sent'.padStart(10)} ${'peer (identity)'.padStart(16)} ${'sent/peer'.padStart(9)}`);
  const kinds: Kind[] = ['document', 'script', 'stylesheet', 'api', 'other'];
  for (const kind of [...kinds, undefined]) {
    const files = compressed.filter((d) => !kind || d.kind === kind).length;
    if (files === 0) continue;
    const sent = sum(compressed, 'sent', kind && [kind]);
    const before = sum(peer, 'sent', kind && [kind]);
    byKind[kind ?? 'all'] = { files, bytesSent: sent, peerBytesSentIdentity: before };
    console.log(
      `  ${(kind ?? 'all').padEnd(11)} ${String(files).padStart(5)} ${kb(sent).padStart(10)} ${kb(before).padStart(16)} ${before ? (sent / before).toFixed(2).padStart(8) : '-'.padStart(8)}×`,
    );
  }
  return byKind;
}

async function main() {
  console.log(`Machine: ${machine()}, Node ${process.version}; ` + `load average (1/5/15 min) at start ${load()}`);
  const database = await createTestDatabase('bench_landing', demoFrom);
  const config = { ...readConfig({}), billingSchedule: null, redisUrl: undefined };
  const api = await createApiServer({
    config,
    databaseUrl: database.url,
    sessionKey: randomBytes(32),
    queuePrefix: database.name,
    staticRoots: builtFrontEnds,
  });
  const connection = queueConnection({ redisUrl: undefined, databaseUrl: database.url, prefix: database.name });
  const projector = await startProjector({ pool: api.pool, store: api.store, connection, payments: config, schedule: config });
  let browser: Browser | undefined;
  try {
    const { store, pool } = api;
    if (!demoFrom)
      await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
    const ctx = { store, pool, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const { position } = await registerStaff(ctx, { ...DEMO_STAFF, password: DEMO_PASSWORD });
    if (position) await api.afterAppend(position, 30_000);
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    const b = browser;

    const landing = (encoding: string) =>
      visit(b, baseUrl, encoding, async (page) => {
        await page.goto(`${baseUrl}/`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
      });
    const dashboard = (encoding: string) =>
      visit(
        b,
        baseUrl,
        encoding,
        async (page) => {
          await page.goto(`${baseUrl}/`);
          await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 60_000 });
        },
        async (request) => {
          const signedIn = await request.post(`${baseUrl}/api/auth/login`, { data: { email: DEMO_STAFF.email, password: DEMO_PASSWORD } });
          if (!signedIn.ok()) throw new Error(`the demo owner's sign-in answered ${signedIn.status()}`);
        },
      );

    const landingSent = await landing('br, gzip');
    const landingPeer = await landing('identity');
    const dashboardSent = await dashboard('br, gzip');
    const dashboardPeer = await dashboard('identity');

    const landingByKind = report('Portal landing page `/`, signed out (first visit, empty cache):', landingSent, landingPeer, verbose);
    const dashboardByKind = report('Console first signed-in route `/` (the dashboard, demo owner, empty cache):', dashboardSent, dashboardPeer, verbose);

    const landingJs = sum(landingSent, 'sent', ['script']);
    const landingJsPeer = sum(landingPeer, 'sent', ['script']);
    const dashboardAll = sum(dashboardSent, 'sent');
    const dashboardAllPeer = sum(dashboardPeer, 'sent');
    const landingMet = landingJs / 1024 <= LANDING_JS_TARGET_KB;
    const dashboardMet = dashboardAll / 1024 <= DASHBOARD_TARGET_KB;
    console.log('\nTargets:');
    console.log(
      `  landing page JavaScript as sent: ${kb(landingJs)} (uncompressed ${kb(sum(landingSent, 'uncompressed', ['script']))}; peer sent ${kb(landingJsPeer)}, ` +
        `ratio ${(landingJs / landingJsPeer).toFixed(2)}×), target ≤ ${LANDING_JS_TARGET_KB} KB: ${landingMet ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  console first signed-in route as sent: ${kb(dashboardAll)} in ${dashboardSent.length} responses (uncompressed ${kb(sum(dashboardSent, 'uncompressed'))}; ` +
        `peer sent ${kb(dashboardAllPeer)}, ratio ${(dashboardAll / dashboardAllPeer).toFixed(2)}×), target ≤ ${DASHBOARD_TARGET_KB} KB: ${dashboardMet ? 'met' : 'NOT met'}`,
    );
    console.log(`Load average (1/5/15 min) at end ${load()}`);
    run.write({
      portalLandingSignedOut: {
        javaScriptBytesSent: landingJs,
        javaScriptBytesUncompressed: sum(landingSent, 'uncompressed', ['script']),
        peerJavaScriptBytesSentIdentity: landingJsPeer,
        byKind: landingByKind,
      },
      consoleFirstSignedInRoute: {
        bytesSent: dashboardAll,
        responses: dashboardSent.length,
        bytesUncompressed: sum(dashboardSent, 'uncompressed'),
        peerBytesSentIdentity: dashboardAllPeer,
        byKind: dashboardByKind,
      },
      target: {
        landingJavaScriptAtMostKB: LANDING_JS_TARGET_KB,
        landingMet,
        consoleFirstRouteAtMostKB: DASHBOARD_TARGET_KB,
        consoleMet: dashboardMet,
      },
    });
    if (!landingMet || !dashboardMet) targetMissed();
  } finally {
    await browser?.close();
    await projector.stop();
    await api.close();
    await database.drop();
  }
}

await main();
