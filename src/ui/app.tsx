import type { AppRuntime } from './boot/create-app';
import { AppContext } from './app-context';
import { ErrorBoundary } from './error-boundary';
import { AppIntlProvider } from './intl-provider';
import { AppRouter } from './router';
import { CookieBanner } from './shell/cookie-banner';
import { NotificationsHost } from './shell/notifications-host';

export function App({ runtime }: { runtime: AppRuntime }) {
  return (
    <AppContext.Provider
      value={{ actor: runtime.actor, api: runtime.api, http: runtime.http, recorder: runtime.recorder, inspection: runtime.inspection }}
    >
      <AppIntlProvider>
        <ErrorBoundary>
          <AppRouter />
        </ErrorBoundary>
        <NotificationsHost />
        <CookieBanner />
      </AppIntlProvider>
    </AppContext.Provider>
  );
}
