import { defineConfig } from 'vite';

// `npm run dev` proxies the API to a `steppe serve` on port 8080.
export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } } },
  test: { include: ['tests/**/*.test.ts'], environment: 'node' },
});
