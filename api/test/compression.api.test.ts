import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { builtFrontEnds } from '@storage/testing/browser';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What goes over the wire: the apps' fingerprinted assets go precompressed (brotli or gzip, as
// the client accepts; made by the build) with immutable caching, and API answers over 1 KB are
// compressed per answer. Runs on the last `npm run build`, as the product serves it.

const varies = (headers: Record<string, unknown>) =>
  String(headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('the built apps go precompressed', () => {
  let platform: TestPlatform;
  /** A fingerprinted script and stylesheet the portal's landing page loads. */
  let script: string;
  let stylesheet: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ staticRoots: builtFrontEnds });
    const landing = await platform.api.app.inject({ method: 'GET', url: '/' });
    script = /\/portal-assets\/[^"]+\.js/.exec(landing.body)![0];
    stylesheet = /\/portal-assets\/[^"]+\.css/.exec(landing.body)![0];
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => platform.api.app.inject({ method, url, headers });
  const onDisk = (url: string) => readFileSync(join(builtFrontEnds.portal, url));

  it('brotli when the client accepts it, with the type, immutable caching and Vary', async () => {
    const response = await get(script, { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(response.headers)).toBe(true);
    expect(response.rawPayload.length).toBe(onDisk(`${script}.br`).length);
    expect(response.rawPayload.length).toBeLessThan(onDisk(script).length / 2);
    expect(brotliDecompressSync(response.rawPayload).equals(onDisk(script))).toBe(true);
  });

  it('gzip when only gzip is accepted', async () => {
    const response = await get(script, { 'accept-encoding': 'gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(varies(response.headers)).toBe(true);
    expect(gunzipSync(response.rawPayload).equals(onDisk(script))).toBe(true);
  });

  it('the file itself when no encoding is accepted (or none the server has)', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }] as Record<string, string>[]) {
      const response = await get(script, headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(response.headers)).toBe(true);
      expect(response.rawPayload.equals(onDisk(script))).toBe(true);
    }
  });

  it('stylesheets too, as text/css', async () => {
    const response = await get(stylesheet, { 'accept-encoding': 'br' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/css/);
    expect(brotliDecompressSync(response.rawPayload).equals(onDisk(stylesheet))).toBe(true);
  });

  it('HEAD answers the same headers without a body', async () => {
    const response = await get(script, { 'accept-encoding': 'br' }, 'HEAD');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(Number(response.headers['content-length'])).toBe(onDisk(`${script}.br`).length);
    expect(response.rawPayload.length).toBe(0);
  });

  it('a revalidation answers 304 without a body, per encoding', async () => {
    const first = await get(script, { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).not.toBe('undefined');
    const again = await get(script, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const since = await get(script, { 'accept-encoding': 'br', 'if-modified-since': String(first.headers['last-modified']) });
    expect(since.statusCode).toBe(304);
    // The gzip copy is another representation: the brotli copy's tag does not match it.
    const gzip = await get(script, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('a missing asset is still a 404 when encodings are accepted', async () => {
    const missing = await get('/portal-assets/no-such-file.js', { 'accept-encoding': 'br, gzip' });
    expect(missing.statusCode).toBe(404);
  });

  it('index.html is revalidated on every visit (no-cache), never kept as immutable', async () => {
    const response = await get('/', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('API answers are compressed', () => {
  let platform: TestPlatform;
  let staff: string;
  let customerId: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    staff = await platform.signIn('owner');
    for (let i = 0; i < 8; i++) {
      const created = await platform.api.app.inject({
        method: 'POST',
        url: '/api/customers',
        headers: { cookie: staff },
        payload: { firstName: 'Wire', lastName: `Renter ${i}`, email: `wire-${i}-${randomUUID().slice(0, 8)}@example.test` },
      });
      expect(created.statusCode, created.body).toBe(201);
      customerId = created.json().id;
    }
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (url: string, acceptEncoding?: string) =>
    platform.api.app.inject({ method: 'GET', url, headers: { cookie: staff, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

  it('a JSON list over the threshold goes brotli, gzip or as it is, as the client accepts', async () => {
    const plain = await get('/api/customers');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/api/customers', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(varies(br.headers)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
    // The headers the list pages by survive compression.
    expect(br.headers['x-total-count']).toBe(plain.headers['x-total-count']);

    const gzip = await get('/api/customers', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('a small answer goes as it is (compressing it would cost more than it saves)', async () => {
    const response = await get('/api/auth/user', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('a PDF goes as it is (already compressed)', async () => {
    const response = await get(`/api/customers/${customerId}/statement.pdf`, 'br, gzip');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('errors are compressed like any answer and still name the field', async () => {
    const response = await get('/api/customers?page=x', 'gzip');
    expect(response.statusCode).toBe(400);
    const body = response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload).toString('utf8') : response.body;
    expect(body).toContain('page');
  });
});
