import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImports, importSpecifiers, packageName } from '../checks/imports.ts';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** Source text for the fixtures: written with FROM so that this file's own strings do not look like imports to the check. */
const source = (text: string) => text.replaceAll('FROM', 'from');

/** A repository of two workspaces: `lib` (declares zod) and `console` (declares @storage/lib). */
function repo(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'import-check-'));
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'root', workspaces: ['lib', 'console'] }),
    'lib/package.json': JSON.stringify({ name: '@storage/lib', dependencies: { zod: '4.6.7' } }),
    'console/package.json': JSON.stringify({ name: '@storage/console', dependencies: { '@storage/lib': '*' }, devDependencies: { vitest: '5.1.1' } }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source(text));
  }
  return root;
}

describe('the import check', () => {
  it('finds static, type, re-export, side-effect and dynamic imports, not commented ones', () => {
    const text = source(
      [
        "import { a } FROM 'zod';",
        "import type { B } FROM '@storage/lib/b';",
        "export { c } FROM './c.ts';",
        "import './styles.css';",
        "const d = await import('node:fs');",
        "// import { e } FROM 'left-pad';",
        "/* import { f } FROM 'right-pad'; */",
        'import {\n  g,\n  h,\n} FROM "multi-line";',
      ].join('\n'),
    );
    expect(importSpecifiers(text).sort()).toEqual(['./c.ts', './styles.css', '@storage/lib/b', 'multi-line', 'node:fs', 'zod']);
    expect(packageName('@storage/lib/b')).toBe('@storage/lib');
    expect(packageName('react-dom/client')).toBe('react-dom');
  });

  it('passes a tree whose imports are declared, builtins and the package itself', () => {
    const dir = repo({
      'lib/src/a.ts': "import { z } FROM 'zod';\nimport { readFileSync } FROM 'node:fs';\nimport { join } FROM 'path';\nimport { b } FROM '@storage/lib/b';",
      'console/src/features/units/list.ts': "import { a } FROM '@storage/lib/a';\nimport { format } FROM '../../lib/format.ts';",
      'console/test/units.test.ts': "import { it } FROM 'vitest';",
    });
    expect(checkImports(dir, new Set())).toEqual([]);
  });

  it('names a package the workspace does not declare', () => {
    const dir = repo({ 'console/src/a.ts': "import { z } FROM 'zod';" });
    expect(checkImports(dir, new Set())).toEqual(["console/src/a.ts: imports 'zod', not declared in console/package.json"]);
  });

  it('refuses a relative path into another workspace, from source and tests alike', () => {
    const dir = repo({
      'console/src/a.ts': "import { b } FROM '../../lib/src/b.ts';",
      'console/test/a.test.ts': "import { b } FROM '../../lib/src/b.ts';",
    });
    expect(checkImports(dir, new Set())).toEqual([
      "console/src/a.ts: '../../lib/src/b.ts' reaches into lib/ by path; import it as @storage/lib/…",
      "console/test/a.test.ts: '../../lib/src/b.ts' reaches into lib/ by path; import it as @storage/lib/…",
    ]);
  });

  it('checks a nested workspace (lib/test) against its own package.json, and a relative path into its parent as another workspace', () => {
    const dir = repo({
      'package.json': JSON.stringify({ name: 'root', workspaces: ['lib', 'console', 'lib/test'] }),
      'lib/test/package.json': JSON.stringify({ name: '@storage/lib-tests', devDependencies: { '@storage/lib': '*' } }),
      'lib/test/a.test.ts': "import { a } FROM '@storage/lib/a';\nimport { z } FROM 'zod';\nimport { b } FROM '../src/b.ts';",
    });
    expect(checkImports(dir, new Set()).sort()).toEqual([
      "lib/test/a.test.ts: '../src/b.ts' reaches into lib/ by path; import it as @storage/lib/…",
      "lib/test/a.test.ts: imports 'zod', not declared in lib/test/package.json",
    ]);
  });

  it("names a cycle among the workspaces' declared dependencies, devDependencies included", () => {
    const dir = repo({
      'lib/package.json': JSON.stringify({ name: '@storage/lib', dependencies: { zod: '4.6.7' }, devDependencies: { '@storage/console': '*' } }),
    });
    expect(checkImports(dir, new Set())).toEqual(['workspace cycle: lib → console → lib (package.json dependencies)']);
  });

  it('refuses a feature importing another feature unless the edge is known, and notices a known edge that is gone', () => {
    const dir = repo({ 'console/src/features/units/card.ts': "import { HistoryButton } FROM '../history/button.ts';" });
    expect(checkImports(dir, new Set())).toEqual([
      "console/src/features/units/card.ts: feature console:units imports feature console:history ('../history/button.ts'); share it from components/, lib/ or compose in app/",
    ]);
    expect(checkImports(dir, new Set(['console:units→history']))).toEqual([]);
    expect(checkImports(dir, new Set(['console:units→history', 'console:leases→history']))).toEqual([
      'ops/checks/imports.ts: the known feature import console:leases→history is gone; remove it from KNOWN_FEATURE_EDGES',
    ]);
  });
});
