import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_COST, passwordCost } from './passwords.ts';

const costOf = (hash: string) => Number(hash.split('$')[1]);

describe('the scrypt cost of new password hashes', () => {
  it('is production’s N=2^15 unless the test runner lowered it', () => {
    expect(PRODUCTION_COST).toBe(32768);
    expect(passwordCost({})).toBe(PRODUCTION_COST);
    // The test-only setting outside a process vitest started (the product's, whatever its environment).
    expect(passwordCost({ PASSWORD_COST_FOR_TESTS: '1024' })).toBe(PRODUCTION_COST);
    expect(passwordCost({ PASSWORD_COST_FOR_TESTS: '1024', NODE_ENV: 'test' })).toBe(PRODUCTION_COST);
  });

  it('takes the lowered cost under vitest only when it is a power of two no higher than production’s', () => {
    expect(passwordCost({ VITEST: 'true', PASSWORD_COST_FOR_TESTS: '1024' })).toBe(1024);
    for (const bad of ['1000', '0', '1', '-2', '65536', 'cheap', ''])
      expect(passwordCost({ VITEST: 'true', PASSWORD_COST_FOR_TESTS: bad })).toBe(PRODUCTION_COST);
  });

  it('is lowered in this suite (vitest.config.ts), so its sign-ins are cheap', () => {
    expect(passwordCost()).toBe(1024);
  });

  it('hashes at N=2^15 in a process of the product even with the test setting in its environment', () => {
    const module = fileURLToPath(new URL('./passwords.ts', import.meta.url));
    const { VITEST: _vitest, VITEST_POOL_ID: _pool, VITEST_WORKER_ID: _worker, ...env } = process.env;
    const hash = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `const { hashPassword } = await import(${JSON.stringify(module)}); process.stdout.write(await hashPassword('x'));`],
      {
        env: { ...env, PASSWORD_COST_FOR_TESTS: '2' },
        encoding: 'utf8',
      },
    );
    expect(hash).toMatch(/^scrypt\$/);
    expect(costOf(hash)).toBe(32768);
  });
});
