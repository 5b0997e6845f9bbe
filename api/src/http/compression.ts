import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this an answer goes as it is: compressing it would save less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

// API answers (JSON, CSV, the HTML pages the API writes) are compressed per answer when the
// client accepts it and they are over the threshold: brotli at a quick level, else gzip.
// What is already compressed or must not wait for a buffer goes as it is: PDFs (their type is not
// a compressible one), event streams (excluded by type), partial content. The apps' built assets
// are compressed once at build time and served as they are (static.ts); the plugin sees their
// Content-Encoding and leaves them. Request bodies are not decompressed: the API takes them as
// sent, within its body limit. Registered before the routes: it attaches to each route as it is
// added.
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    globalDecompression: false,
  });
}
