import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

// The JavaScript a visitor downloads before the landing page runs: the entry chunk and what it
// imports statically (Vite lists those as modulepreload links). Lazy routes are not counted.
// Reads the last `npm run build`; builds nothing itself.

const TARGET_KB = 150;
const distDir = resolve(import.meta.dirname, '../../portal/dist');

function landingScripts(html: string): string[] {
  const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  const preloaded = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  return [...new Set([...entry, ...preloaded])];
}

let html: string;
try {
  html = readFileSync(join(distDir, 'index.html'), 'utf8');
} catch {
  console.error(`No portal build in ${distDir}: run \`npm run build\` first.`);
  process.exit(1);
}

const scripts = landingScripts(html);
if (scripts.length === 0) {
  console.error('The built index.html names no module script.');
  process.exit(1);
}
let totalBytes = 0;
for (const src of scripts) {
  const gzipped = gzipSync(readFileSync(join(distDir, src.replace(/^\//, '')))).length;
  totalBytes += gzipped;
  console.log(`${(gzipped / 1024).toFixed(1).padStart(8)} KB  ${src}`);
}
const totalKb = totalBytes / 1024;
const meets = totalKb <= TARGET_KB;
console.log(`Landing page JavaScript: ${totalKb.toFixed(1)} KB gzipped (target ${TARGET_KB} KB): ${meets ? 'meets the target' : 'OVER the target'}`);
process.exitCode = meets ? 0 : 1;
