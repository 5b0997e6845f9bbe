// wawoff2 ships no types; its decompressor alone, without the compressor the package's index loads too.
declare module 'wawoff2/decompress.js' {
  /** The TrueType or OpenType font in a WOFF2 file. */
  export default function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
