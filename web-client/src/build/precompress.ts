// The build step both front ends share (their vite.config.ts): once Vite has written the bundle,
// every text asset gets a brotli (`.br`) and a gzip (`.gz`) sibling, compressed at the highest
// level once here instead of on every request. The API serves them with @fastify/static's
// `preCompressed` (api/src/http/static.ts), picking by the request's Accept-Encoding. Node only:
// no browser code imports this file.

import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * What compresses: scripts, styles and vector images (woff2 fonts and raster images already are;
 * index.html is sent by the API from memory, compressed per answer).
 */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|map)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(path) : Promise.resolve([path]);
    }),
  );
  return nested.flat();
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` worth compressing; a copy that would not be smaller is not written. */
export async function precompressDirectory(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number; gzipBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  for (const file of files) {
    if ((await stat(file)).size < MIN_BYTES) continue;
    const source = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    totals.files++;
    totals.bytes += source.length;
    if (br.length < source.length) {
      await writeFile(`${file}.br`, br);
      totals.brotliBytes += br.length;
    }
    if (gz.length < source.length) {
      await writeFile(`${file}.gz`, gz);
      totals.gzipBytes += gz.length;
    }
  }
  return totals;
}

/** A Vite plugin: precompresses the build's output once it is written (`vite build` only). */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'storage-precompress',
    apply: 'build' as const,
    // Brotli at its best quality takes a few seconds by design; rolldown would print a page of
    // "slow plugin" timings about it at every build (npm start's included).
    config: () => ({ build: { rolldownOptions: { checks: { bundlerTimings: false } } } }),
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { files, bytes, brotliBytes, gzipBytes } = await precompressDirectory(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(`precompressed ${files} files of ${kb(bytes)}: ${kb(brotliBytes)} brotli, ${kb(gzipBytes)} gzip`);
    },
  };
}
