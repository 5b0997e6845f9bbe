import { precompress } from '@storage/web-client/build/precompress';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * @rc-component/form's entry module attaches Field, List and useForm to its default export, so a
 * bundler keeps the whole form engine (with async-validator) wherever anything is imported from it.
 * Every antd input imports only its FormProvider (through antd's form context), which lives in a
 * module of its own: marking the entry free of side effects lets the dashboard, which shows no
 * form, leave the engine out (about 15 KB compressed); screens with a form get it as before.
 */
const rcFormEntryWithoutSideEffects: Plugin = {
  name: 'rc-form-entry-without-side-effects',
  transform: {
    filter: { id: /@rc-component\/form\/es\/index\.js$/ },
    handler: (code) => ({ code, moduleSideEffects: false }),
  },
};

export default defineConfig({
  base: '/',
  plugins: [react(), rcFormEntryWithoutSideEffects, precompress()],
  build: {
    outDir: 'dist',
    assetsDir: 'console-assets',
  },
});
