import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const api = process.env.RETRY_STUDIO_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // module workers: the import worker loads ELK (1.4 MB) only for a design small enough for the layered layout
  worker: { format: 'es' },
  server: {
    proxy: {
      // The API refuses a foreign Host or Origin (DNS rebinding, CSRF). The dev server is this
      // app's own origin in development, so it presents itself as the API's origin.
      '/api': {
        target: api,
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (req) => {
            if (req.getHeader('origin')) req.setHeader('origin', api);
          });
        },
      },
    },
  },
});
