import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthUrl } from '../src/health-probe.ts';

// The containers' health check (Dockerfile HEALTHCHECK, docker-compose.yml): exit 0 only on a 2xx.

const probe = fileURLToPath(new URL('../src/health-probe.ts', import.meta.url));

function runProbe(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [probe, ...args], { env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('health-probe', () => {
  let server: Server;
  let port: number;
  let answer = 200;
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.writeHead(request.url === '/api/health/ready' || request.url === '/api/health/live' ? answer : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path: request.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('asks the API on PORT and the projector on PROJECTOR_HEALTH_PORT, ready unless told live', () => {
    expect(healthUrl('api', undefined, { PORT: '8080' })).toBe('http://127.0.0.1:8080/api/health/ready');
    expect(healthUrl('api', 'live', {})).toBe('http://127.0.0.1:3000/api/health/live');
    expect(healthUrl('projector', 'ready', { PORT: '8080', PROJECTOR_HEALTH_PORT: '3101' })).toBe('http://127.0.0.1:3101/api/health/ready');
    expect(healthUrl('projector', undefined, {})).toBe('http://127.0.0.1:3001/api/health/ready');
    expect(() => healthUrl('web', 'ready', {})).toThrow('usage: health-probe.ts api|projector [ready|live]');
    expect(() => healthUrl('api', 'alive', {})).toThrow('the check must be ready or live, got alive');
  });

  it('exits 0 on a 2xx answer and 1 on a 503 or no answer', async () => {
    answer = 200;
    const healthy = await runProbe(['projector', 'live'], { PROJECTOR_HEALTH_PORT: String(port) });
    expect([healthy.code, healthy.output.trim()]).toEqual([0, `http://127.0.0.1:${port}/api/health/live: 200 {"path":"/api/health/live"}`]);
    answer = 503;
    const unready = await runProbe(['api'], { PORT: String(port) });
    expect(unready.code).toBe(1);
    expect(unready.output).toContain('/api/health/ready: 503');
    const nobody = await runProbe(['api'], { PORT: '1' });
    expect(nobody.code).toBe(1);
  });
});
