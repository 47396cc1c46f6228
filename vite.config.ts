import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompileMessages } from './scripts/vite-precompile-messages.ts';

export default defineConfig({
  // tests read the locale files as they are; the app gets them precompiled
  plugins: [react(), tailwindcss(), ...(process.env.VITEST ? [] : [precompileMessages()])],
  build: {
    manifest: true,
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
  server: { port: 5173 },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // each file opens its own SQLite file and ports; two cores, so two forks
          pool: 'forks',
          testTimeout: 20_000,
        },
      },
    ],
  },
});
