/**
 * Import checks Biome cannot express, run by `npm run lint`:
 * 1. every bare import is declared in the importing workspace's package.json (dependencies, or
 *    devDependencies for what only tests use), or is a Node builtin; workspaces are declared as "*";
 * 2. a relative import never reaches into another workspace's folder (use its package name, which the
 *    Biome rules then check against ARCHITECTURE.md's Packages table);
 * 3. a console or portal feature imports no other feature (compose in `app`), except the edges listed
 *    below, which exist today and are to be moved into shared code;
 * 4. the workspaces' declared dependencies on each other (devDependencies included) form no cycle:
 *    tests that use @storage/testing, which uses the workspace they test, are a workspace of their
 *    own (`api/test`, …).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Feature-to-feature imports that exist today (from → to). Each one is a debt: move the shared piece out of the feature. */
export const KNOWN_FEATURE_EDGES: ReadonlySet<string> = new Set([
  'console:customers→history',
  'console:invoices→history',
  'console:leases→history',
  'console:locks→history',
  'console:reservations→leases',
  'console:staff→history',
  'console:units→history',
  'portal:rent-now→portal',
  'portal:rent-now→units',
]);

interface PackageJson {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
const declared = (pkg: PackageJson) =>
  new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);

const builtins = new Set(builtinModules);

/** The workspace's own source files: not those of a workspace nested in it (`api/test`). */
function sourceFiles(dir: string, top = true): string[] {
  if (!top && existsSync(join(dir, 'package.json'))) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, false);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module specifiers of static imports, re-exports, side-effect imports and dynamic imports with a literal. */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]!);
  return found;
}

export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const featureOf = (root: string, path: string) => {
  const parts = relative(root, path).split(sep);
  return (parts[0] === 'console' || parts[0] === 'portal') && parts[1] === 'src' && parts[2] === 'features' && parts.length > 4
    ? `${parts[0]}:${parts[3]}`
    : null;
};

/** The workspace a path lies in: the longest workspace folder that holds it. */
function workspaceOf(workspaces: readonly string[], path: string): string | undefined {
  const holding = workspaces.filter((w) => path === w || path.startsWith(`${w}${sep}`));
  return holding.sort((a, b) => b.length - a.length)[0];
}

/** One line per cycle among the workspaces' declared dependencies on each other. */
export function workspaceCycles(root: string, workspaces: readonly string[]): string[] {
  const manifests = new Map(workspaces.map((w) => [w, readJson(join(root, w, 'package.json'))]));
  const byName = new Map([...manifests].map(([w, m]) => [m.name, w]));
  const edges = new Map([...manifests].map(([w, m]) => [w, [...declared(m)].flatMap((name) => byName.get(name) ?? [])]));
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (w: string, path: string[]) => {
    if (path.includes(w)) {
      cycles.push(`workspace cycle: ${[...path.slice(path.indexOf(w)), w].join(' → ')} (package.json dependencies)`);
      return;
    }
    if (done.has(w)) return;
    for (const next of edges.get(w) ?? []) visit(next, [...path, w]);
    done.add(w);
  };
  for (const w of workspaces) visit(w, []);
  return cycles;
}

/** What is wrong with the imports of the workspaces under `root`, one line each (empty when all is well). */
export function checkImports(root: string, knownFeatureEdges: ReadonlySet<string> = KNOWN_FEATURE_EDGES): string[] {
  const rootPackage = readJson(join(root, 'package.json'));
  const workspaces = rootPackage.workspaces ?? [];
  const problems: string[] = [];
  const seenEdges = new Set<string>();
  for (const workspace of workspaces) {
    const dir = join(root, workspace);
    const manifest = readJson(join(dir, 'package.json'));
    const own = declared(manifest).add(manifest.name);
    for (const file of sourceFiles(dir)) {
      const where = relative(root, file);
      for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          const targetWorkspace = workspaceOf(workspaces, relative(root, target));
          if (targetWorkspace !== undefined && targetWorkspace !== workspace) {
            problems.push(`${where}: '${specifier}' reaches into ${targetWorkspace}/ by path; import it as @storage/${targetWorkspace}/…`);
          }
          const from = featureOf(root, file);
          const to = featureOf(root, target);
          if (from && to && from !== to) {
            const edge = `${from}→${to.split(':')[1]}`;
            seenEdges.add(edge);
            if (!knownFeatureEdges.has(edge))
              problems.push(`${where}: feature ${from} imports feature ${to} ('${specifier}'); share it from components/, lib/ or compose in app/`);
          }
          continue;
        }
        if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
        const name = packageName(specifier);
        if (own.has(name)) continue;
        problems.push(`${where}: imports '${name}', not declared in ${workspace}/package.json`);
      }
    }
  }
  problems.push(...workspaceCycles(root, workspaces));
  for (const edge of knownFeatureEdges) {
    if (!seenEdges.has(edge)) problems.push(`ops/checks/imports.ts: the known feature import ${edge} is gone; remove it from KNOWN_FEATURE_EDGES`);
  }
  return problems;
}

if (import.meta.main) {
  const problems = checkImports(resolve(dirname(fileURLToPath(import.meta.url)), '../..'));
  if (problems.length > 0) {
    console.error(`Import check: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
}
