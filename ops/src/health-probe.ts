// The container health check: `node ops/src/health-probe.ts api|projector [ready|live]`.
// Asks the process in this container its health answer (the API on PORT, the projector on
// PROJECTOR_HEALTH_PORT, both at /api/health/<ready|live>) and exits 0 on a 2xx, 1 otherwise.
// Node only: the runtime image has no curl or wget.

const PROBE_TIMEOUT_MS = 2500;

export function healthUrl(role: string | undefined, kind: string | undefined, env: NodeJS.ProcessEnv): string {
  if (role !== 'api' && role !== 'projector') throw new Error('usage: health-probe.ts api|projector [ready|live]');
  const check = kind ?? 'ready';
  if (check !== 'ready' && check !== 'live') throw new Error(`the check must be ready or live, got ${check}`);
  const port = role === 'api' ? env.PORT || '3000' : env.PROJECTOR_HEALTH_PORT || '3001';
  return `http://127.0.0.1:${port}/api/health/${check}`;
}

if (import.meta.main) {
  try {
    const url = healthUrl(process.argv[2], process.argv[3], process.env);
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = await response.text();
    console.log(`${url}: ${response.status} ${body.slice(0, 500)}`);
    process.exitCode = response.ok ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
