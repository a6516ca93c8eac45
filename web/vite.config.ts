import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { jsBudget } from './build/budget';

// Served by the gateway from web/dist (services/gateway/src/browser.ts) under a strict CSP: no
// inline scripts, so the module-preload polyfill (an inline snippet in older setups) is off.
export default defineConfig({
  plugins: [react(), jsBudget()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
});
