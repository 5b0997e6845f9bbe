import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partOf, partOfProcess, sampleCpuByPart } from '../bench/process-cpu.ts';

describe("bench:suite's CPU by part", () => {
  it('puts each process of a run under its part by name and command line', () => {
    expect(partOf('chromium', '/usr/lib/chromium/chromium --type=renderer')).toBe('chromium');
    expect(partOf('ThreadPoolForeg', '/usr/lib/chromium/chromium --type=gpu-process')).toBe('chromium');
    expect(partOf('postgres', 'postgres: postgres platform_1 127.0.0.1(5432) idle')).toBe('postgresql');
    expect(partOf('postgres', '/tmp/data/bin/postgres -D /tmp/data/pg')).toBe('postgresql');
    expect(partOf('redis-server', '/usr/bin/redis-server 127.0.0.1:6379')).toBe('redis');
    expect(partOf('node', '/usr/bin/redis-server -e spin')).toBe('redis');
    expect(partOf('node', 'node /work/main/node_modules/.bin/vitest run')).toBe('testProcesses');
    expect(partOf('MainThread', 'node /work/main/node_modules/vitest/dist/workers/forks.js')).toBe('testProcesses');
    expect(partOf('biome', '/work/main/node_modules/@biomejs/cli-linux-x64/biome ci .')).toBe('lintTypesBuild');
    expect(partOf('node', 'node /work/main/node_modules/.bin/tsc -p tsconfig.json --noEmit')).toBe('lintTypesBuild');
    expect(partOf('node', 'node /work/main/node_modules/.bin/vite build')).toBe('lintTypesBuild');
    expect(partOf('node', 'node ops/checks/imports.ts')).toBe('lintTypesBuild');
    expect(partOf('sshd', '/usr/sbin/sshd -D')).toBe('other');
  });

  it("puts what the tests or the build started under them, the kernel's threads under the kernel", () => {
    // A product a test started as a user would (`node ops/src/cli.ts start`), and its npm.
    expect(partOfProcess('900', '800', 'node', 'node ops/src/cli.ts start', 'testProcesses')).toBe('testProcesses');
    expect(partOfProcess('901', '800', 'npm start', 'npm start', 'testProcesses')).toBe('testProcesses');
    expect(partOfProcess('902', '700', 'esbuild', 'esbuild --service', 'lintTypesBuild')).toBe('lintTypesBuild');
    // Named for what it is whoever started it: the product's embedded PostgreSQL stays PostgreSQL.
    expect(partOfProcess('903', '900', 'postgres', '/data/bin/postgres -D /data/pg', 'testProcesses')).toBe('postgresql');
    // The machine's own services, started by init.
    expect(partOfProcess('904', '1', 'beam.smp', '/usr/lib/erlang/erts/bin/beam.smp', 'other')).toBe('other');
    expect(partOfProcess('905', '2', 'kdamond.0', '', undefined)).toBe('kernel');
    expect(partOfProcess('2', '0', 'kthreadd', '', undefined)).toBe('kernel');
  });

  it.runIf(existsSync('/proc/stat'))("counts a process's CPU under its part, started after the first look and ended before the last", async () => {
    const sampler = sampleCpuByPart(50);
    // A process whose command line names redis-server, started after the first look, that spins
    // about 0.6 s of CPU and ends: the sampler must put it under Redis and keep what it spent
    // though it is gone at the last look.
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 600; while (Date.now() < end);'], { argv0: '/usr/bin/redis-server' });
    await new Promise((resolve) => child.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cpu = sampler.stop();
    expect(cpu).not.toBeNull();
    // Up to one interval of it may fall between its last look and its end.
    expect(cpu!.byPart.redis).toBeGreaterThanOrEqual(0.4);
    expect(cpu!.machineBusySeconds).toBeGreaterThanOrEqual(cpu!.byPart.redis);
    expect(cpu!.floorSeconds).toBeCloseTo(cpu!.machineBusySeconds / cpu!.cores, 1);
  });
});
