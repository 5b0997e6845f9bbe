import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '@storage/testing/database';
import { describe, expect, it } from 'vitest';
import { checkClusterRun, runLocalCluster } from '../src/cluster-local.ts';

// The distributed deployment on this machine (`npm run ops -- cluster:local`): two API processes
// and two projector processes; the projector running the catch-ups dies by SIGKILL half-way and
// the standby must carry on with every command's result in the read model exactly once.

describe('ops cluster:local', () => {
  it('survives the active projector killed mid-way: the standby projects every command, none lost or doubled', async () => {
    const lines: string[] = [];
    const result = await runLocalCluster({
      postgresUrl: TEST_POSTGRES_URL,
      redisUrl: TEST_REDIS_URL,
      redisDb: 12,
      commandsBefore: 4,
      commandsAfter: 4,
      say: (l) => lines.push(l),
    });
    const report = lines.join('\n');

    expect(result.customersCreated.length, report).toBeGreaterThanOrEqual(8);
    // Commands went through both APIs, before and after the kill.
    for (const afterKill of [false, true]) {
      expect(new Set(result.customersCreated.filter((c) => c.afterKill === afterKill).map((c) => c.through)), report).toEqual(new Set(['api-a', 'api-b']));
    }
    expect(result.killed).not.toBe(result.standby);
    // Only the standby took the checkpoint locks after the kill, and it did.
    expect(result.checkpointLockersAfterKill, report).toEqual([result.standby]);
    expect(logOf(result, result.killed), 'the killed projector did not stop by itself').toContain('Projector running');
    expect([...result.customerRows].sort()).toEqual(result.customersCreated.map((c) => c.id).sort());
    expect([...result.customerEvents].sort()).toEqual(result.customersCreated.map((c) => c.id).sort());
    expect(result.verifyOutput).toContain('no differences');
    expect(checkClusterRun(result), report).toEqual([]);
    expect(report).toContain(`Killed ${result.killed}`);
    expect(report).toContain('Stopped the four processes and dropped the database.');
  }, 180_000);

  it('tells a lost or doubled customer and a read model that differs from a rebuild', () => {
    const base = {
      database: 'x',
      killed: 'projector-a',
      standby: 'projector-b',
      customersCreated: [
        { id: 'c1', through: 'api-a', afterKill: false, ms: 20 },
        { id: 'c2', through: 'api-b', afterKill: true, ms: 30 },
      ],
      customerEvents: ['c1', 'c2'],
      customerRows: ['c1', 'c2'],
      checkpointLockersAfterKill: ['projector-b'],
      verifyOutput: 'no differences.',
      verifyExitCode: 0,
      logs: {},
    };
    expect(checkClusterRun(base)).toEqual([]);
    expect(checkClusterRun({ ...base, customerRows: ['c1'] })).toEqual([
      'customer c2 (through api-b) has 0 read-model rows',
      '1 customer rows for 2 customer_added events',
    ]);
    expect(checkClusterRun({ ...base, customerEvents: ['c1', 'c2', 'c2'] })).toEqual([
      'customer c2 (through api-b) has 2 customer_added events',
      '2 customer rows for 3 customer_added events',
    ]);
    expect(checkClusterRun({ ...base, verifyExitCode: 1, verifyOutput: '1 differences.' })).toEqual(['ops verify exited with 1: 1 differences.']);
  });
});

function logOf(result: { logs: Record<string, string> }, name: string): string {
  return result.logs[name] ?? '';
}
