/**
 * `npm start`'s build step: builds the console and the portal only when a source they are made of
 * changed since their last build (a second start then takes seconds, not a rebuild), and quietly:
 * one line, or Vite's warnings and errors, instead of a page of output before the URL.
 *
 *   node ops/src/build-if-changed.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What each front end is made of: its own sources and the workspaces it imports. */
const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'];
const shared = ['contracts/src', 'web-client/src', 'web-client/build', 'package-lock.json'];
const apps = ['console', 'portal'] as const;

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** When the app was last built (its page), or null when it never was. */
function builtAt(app: string): number | null {
  const page = join(root, app, 'dist', 'index.html');
  return existsSync(page) ? statSync(page).mtimeMs : null;
}

const changed = apps.filter((app) => {
  const built = builtAt(app);
  if (built === null) return true;
  const latest = Math.max(...[...sources.map((s) => join(root, app, s)), ...shared.map((s) => join(root, s))].map(newest));
  return latest > built;
});

if (changed.length === 0) process.exit(0);
console.log(`Building the ${changed.join(' and the ')} (only when their sources change)…`);
const build = spawnSync('npm', ['run', 'build', '--silent', ...changed.flatMap((app) => ['--workspace', app]), '--', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(build.status ?? 1);
