import { useSelector } from '@xstate/react';
import { Suspense, useEffect, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { useChild } from './app-context';
import { FullPageLoader } from './components/loader';
import { lazyPage } from './lib/lazy-page';
import { NotFoundPage } from './pages/errors/error-page';
import { PROTECTED_ROUTES, landingPath } from './routes';
import { PageLoading } from './shell/page-loading';

const SignInPage = lazyPage(() => import('./pages/auth/signin-page'));
const SignUpPage = lazyPage(() => import('./pages/auth/signup-page'));
const Shell = lazyPage(() => import('./shell/shell'));
// QA and developer tools: not in the menus, loaded only when opened
const QaReplayPage = lazyPage(() => import('./pages/qa/replay-page'));
const QaInspectPage = lazyPage(() => import('./pages/qa/inspect-page'));

/**
 * One loader from sign-in to the first page: the full-page loader covers the user's loading, the
 * shell's code and the first page's code alike; only later page changes show the in-page loader.
 * Whether the shell has shown a page since the last time the public pages or the loader were up.
 */
let pageShown = false;

/** Rendered with a page's content: from now on a page change shows the in-page loader. */
function PageShown() {
  useEffect(() => {
    pageShown = true;
  }, []);
  return null;
}

function PageFallback() {
  return pageShown ? <PageLoading /> : <FullPageLoader />;
}

/** The full-page loader; while it shows, the next page is a first page again. */
function BootLoader() {
  useEffect(() => {
    pageShown = false;
  }, []);
  return <FullPageLoader />;
}

type AuthStatus = 'loading' | 'signedIn' | 'anonymous';

function useAuthStatus(): AuthStatus {
  return useSelector(useChild('auth'), (s) => (s.matches('signedIn') ? 'signedIn' : s.matches('anonymous') ? 'anonymous' : 'loading'));
}

/** '/': anonymous visitors to /signin; signed-in users to the remembered address or the profile. */
function Home() {
  const status = useAuthStatus();
  const auth = useChild('auth');
  const returnTo = useSelector(auth, (s) => s.context.returnTo);
  const target = landingPath(returnTo);
  useEffect(() => {
    if (status === 'signedIn' && returnTo) auth.send({ type: 'FORGET_PATH' });
  }, [status, returnTo, auth]);
  if (status === 'loading') return <BootLoader />;
  return <Redirect to={status === 'signedIn' ? target : '/signin'} replace />;
}

/** /signin and /signup: a signed-in user goes to '/'. */
function PublicOnly({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  if (status === 'loading') return <BootLoader />;
  if (status === 'signedIn') return <Redirect to="/" replace />;
  return <Suspense fallback={<BootLoader />}>{children}</Suspense>;
}

/** Every other path needs a signed-in user; the requested address is remembered. */
function Protected({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  const auth = useChild('auth');
  const anonymous = status === 'anonymous';
  // read during render: the redirect below changes the address before effects run
  const requested = window.location.pathname + window.location.search;
  useEffect(() => {
    if (anonymous) auth.send({ type: 'REMEMBER_PATH', path: requested });
  }, [anonymous, auth, requested]);
  if (status === 'loading') return <BootLoader />;
  if (anonymous) return <Redirect to="/signin" replace />;
  return (
    <Suspense fallback={<FullPageLoader />}>
      <Shell>
        <ShellContent>{children}</ShellContent>
      </Shell>
    </Suspense>
  );
}

/**
 * The shell's content area (inside the shell's error boundary, shell/content-error.tsx: a page that
 * cannot load shows Disconnected and a Retry there, and the shell and its indicator stay).
 */
function ShellContent({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageFallback />}>
      {children}
      <PageShown />
    </Suspense>
  );
}

/** The QA player and the inspection panel: every signed-in user in development builds, only admins in production. */
function DevOrAdmin({ children }: { children: ReactNode }) {
  const rank = useSelector(useChild('auth'), (s) => s.context.user?.rank);
  if (import.meta.env.DEV || rank === 'admin') return children;
  return <NotFoundPage />;
}

export function AppRouter() {
  return (
    <Switch>
      <Route path="/">
        <Home />
      </Route>
      <Route path="/signin">
        <PublicOnly>
          <SignInPage />
        </PublicOnly>
      </Route>
      <Route path="/signup">
        <PublicOnly>
          <SignUpPage />
        </PublicOnly>
      </Route>
      {PROTECTED_ROUTES.map(({ path, titleId, page: Page }) => (
        <Route key={path} path={path}>
          <Protected>
            <Page titleId={titleId} />
          </Protected>
        </Route>
      ))}
      <Route path="/qa/replay">
        <Protected>
          <DevOrAdmin>
            <QaReplayPage />
          </DevOrAdmin>
        </Protected>
      </Route>
      <Route path="/qa/inspect">
        <Protected>
          <DevOrAdmin>
            <QaInspectPage />
          </DevOrAdmin>
        </Protected>
      </Route>
      <Route>
        <Protected>
          <NotFoundPage />
        </Protected>
      </Route>
    </Switch>
  );
}
