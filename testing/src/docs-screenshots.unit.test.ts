import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCS_IMAGES, DOCS_SCREENSHOTS, testsTakingDocsScreenshots } from './docs-screenshots.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function markdownFiles(folder: string): Promise<string[]> {
  const entries = await readdir(`${ROOT}${folder}`, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => `${e.parentPath}/${e.name}`);
}

describe("the docs' pictures", () => {
  it('are each one a browser test takes', async () => {
    const taken = new Set(Object.values(DOCS_SCREENSHOTS));
    const pictures = (await readdir(DOCS_IMAGES)).filter((f) => f.endsWith('.png'));
    expect(pictures.filter((picture) => !taken.has(picture))).toEqual([]);
    expect([...taken].filter((picture) => !pictures.includes(picture))).toEqual([]);
  });

  it('are each taken by a browser test that still takes a screenshot of that name', async () => {
    const names = new Set([...(await testsTakingDocsScreenshots()).values()].flat());
    expect(Object.keys(DOCS_SCREENSHOTS).filter((name) => !names.has(name))).toEqual([]);
  });

  it('shown by README and docs/ all exist', async () => {
    const missing: string[] = [];
    for (const file of [`${ROOT}README.md`, ...(await markdownFiles('docs'))]) {
      const text = await readFile(file, 'utf8');
      for (const [, picture] of text.matchAll(/images\/([\w.-]+\.png)/g)) {
        if (!Object.values(DOCS_SCREENSHOTS).includes(picture!)) missing.push(`${file.replace(ROOT, '')}: ${picture}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
