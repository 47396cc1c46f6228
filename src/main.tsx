import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './ui/boot/create-app';
import { App } from './ui/app';
import './ui/styles.css';

// SPEC 9: an unused service worker is unregistered on load
navigator.serviceWorker?.getRegistrations?.().then(
  (registrations) => registrations.forEach((r) => r.unregister()),
  () => undefined,
);

const runtime = createApp();

// error reporting only when a DSN is configured; loaded apart so it costs nothing otherwise
if (runtime.endpoints.sentryDsn) {
  const dsn = runtime.endpoints.sentryDsn;
  import('@sentry/react').then((Sentry) =>
    Sentry.init({ dsn, tracesSampleRate: 1, integrations: [Sentry.browserTracingIntegration()] }),
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App runtime={runtime} />
  </StrictMode>,
);
