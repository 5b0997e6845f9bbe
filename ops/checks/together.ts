/**
 * Runs npm scripts at the same time and reports each one whole, in the order given, once all have
 * ended: `npm test` runs lint, typecheck and build this way before the suite (one after the other
 * they spent their time waiting on each other, on a machine with a core to spare for each). The
 * output of each script is kept together under its name rather than interleaved, and the exit
 * code is 1 when any of them failed, naming which.
 *
 *   node ops/checks/together.ts lint typecheck build
 */
import { spawn } from 'node:child_process';

type Outcome = { script: string; code: number | null; output: string; seconds: number };

function run(script: string): Promise<Outcome> {
  const started = Date.now();
  const child = spawn('npm', ['run', '--silent', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ script, code: 1, output: `${output}${error.message}\n`, seconds: (Date.now() - started) / 1000 }));
    child.once('close', (code) => resolve({ script, code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node ops/checks/together.ts <npm script>...');
  process.exit(2);
}
const outcomes = await Promise.all(scripts.map(run));
for (const { script, code, output, seconds } of outcomes) {
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  console.log(`── npm run ${script}: ${verdict} in ${seconds.toFixed(1)} s`);
  if (output.trim()) console.log(output.trimEnd());
}
const failed = outcomes.filter((o) => o.code !== 0).map((o) => o.script);
if (failed.length > 0) {
  console.error(`\n${failed.map((s) => `npm run ${s}`).join(', ')} failed: see above.`);
  process.exit(1);
}
