import { precompress } from '@storage/web-client/build/precompress';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    assetsDir: 'portal-assets',
  },
});
