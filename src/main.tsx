import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './ui/boot/create-app';
import { startReporting } from './ui/boot/report';
import { App } from './ui/app';
import './ui/styles.css';

// An unused service worker is unregistered on load
navigator.serviceWorker?.getRegistrations?.().then(
  (registrations) => registrations.forEach((r) => r.unregister()),
  () => undefined,
);

const runtime = createApp();

// error reporting only when a DSN is configured; loaded apart so it costs nothing otherwise
if (runtime.endpoints.sentryDsn) void startReporting(runtime.endpoints.sentryDsn);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App runtime={runtime} />
  </StrictMode>,
);
