import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CpuPart, partOf, partOfProcess, sampleCpuByPart } from '../bench/process-cpu.ts';

describe("bench:suite's CPU by part", () => {
  // [name, command line, part]
  const byName: [string, string, CpuPart][] = [
    ['chromium', '/usr/lib/chromium/chromium --type=renderer', 'chromium'],
    ['ThreadPoolForeg', '/usr/lib/chromium/chromium --type=gpu-process', 'chromium'],
    ['postgres', 'postgres: postgres platform_1 127.0.0.1(5432) idle', 'postgresql'],
    ['postgres', '/tmp/data/bin/postgres -D /tmp/data/pg', 'postgresql'],
    ['redis-server', '/usr/bin/redis-server 127.0.0.1:6379', 'redis'],
    ['node', '/usr/bin/redis-server -e spin', 'redis'],
    ['node', 'node /work/main/node_modules/.bin/vitest run', 'testProcesses'],
    ['MainThread', 'node /work/main/node_modules/vitest/dist/workers/forks.js', 'testProcesses'],
    ['biome', '/work/main/node_modules/@biomejs/cli-linux-x64/biome ci .', 'lintTypesBuild'],
    ['node', 'node /work/main/node_modules/.bin/tsc -p tsconfig.json --noEmit', 'lintTypesBuild'],
    ['node', 'node /work/main/node_modules/.bin/vite build', 'lintTypesBuild'],
    ['node', 'node ops/checks/imports.ts', 'lintTypesBuild'],
    ['sshd', '/usr/sbin/sshd -D', 'other'],
  ];
  it.each(byName)('puts %s (%s) under %s by its name and command line', (name, commandLine, part) => {
    expect(partOf(name, commandLine)).toBe(part);
  });

  // [pid, parent pid, name, command line, the parent's part, part]
  const byParent: [string, string, string, string, CpuPart | undefined, CpuPart][] = [
    // A product a test started as a user would (`node ops/src/cli.ts start`), and its npm.
    ['900', '800', 'node', 'node ops/src/cli.ts start', 'testProcesses', 'testProcesses'],
    ['901', '800', 'npm start', 'npm start', 'testProcesses', 'testProcesses'],
    ['902', '700', 'esbuild', 'esbuild --service', 'lintTypesBuild', 'lintTypesBuild'],
    // Named for what it is whoever started it: the product's embedded PostgreSQL stays PostgreSQL.
    ['903', '900', 'postgres', '/data/bin/postgres -D /data/pg', 'testProcesses', 'postgresql'],
    // The machine's own services, started by init; the kernel's threads.
    ['904', '1', 'beam.smp', '/usr/lib/erlang/erts/bin/beam.smp', 'other', 'other'],
    ['905', '2', 'kdamond.0', '', undefined, 'kernel'],
    ['2', '0', 'kthreadd', '', undefined, 'kernel'],
  ];
  it.each(byParent)('puts pid %s (parent %s, %s) under its parent or the kernel where it belongs', (pid, parentPid, name, commandLine, parentPart, part) => {
    expect(partOfProcess(pid, parentPid, name, commandLine, parentPart)).toBe(part);
  });

  it.runIf(existsSync('/proc/stat'))("counts a process's CPU under its part, started after the first look and ended before the last", async () => {
    const sampler = sampleCpuByPart(50);
    // A process whose command line names redis-server, started after the first look, that spins
    // about 0.6 s of CPU and ends: the sampler must put it under Redis and keep what it spent
    // though it is gone at the last look.
    // It spins until it has had 0.6 s of CPU, however loaded the machine is.
    const spin = 'while (process.cpuUsage().user + process.cpuUsage().system < 600_000);';
    const child = spawn(process.execPath, ['-e', spin], { argv0: '/usr/bin/redis-server' });
    await new Promise((resolve) => child.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cpu = sampler.stop();
    expect(cpu).not.toBeNull();
    // Up to one interval of it may fall between its last look and its end.
    expect(cpu!.byPart.redis).toBeGreaterThanOrEqual(0.4);
    expect(cpu!.machineBusySeconds).toBeGreaterThanOrEqual(cpu!.byPart.redis);
    // Both are rounded to a tenth of a second on their own.
    expect(Math.abs(cpu!.floorSeconds - cpu!.machineBusySeconds / cpu!.cores)).toBeLessThanOrEqual(0.1);
  });
});
