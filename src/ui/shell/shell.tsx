import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { useChild } from '../app-context';
import { Sheet, SheetContent, SheetTitle } from '../components/sheet';
import { useApi } from '../lib/use-api';
import { createKingdomApi, kingdomKeys } from '../../api/kingdom';
import { cn } from '../lib/cn';
import { queryClient } from '../lib/query-client';
import { AccessDeniedPage } from '../pages/errors/access-denied-page';
import { mayOpen } from './access';
import { ConnectionIndicator } from './connection-indicator';
import { ContentBoundary } from './content-error';
import { Footer } from './footer';
import { LanguagePicker } from './language-picker';
import { NoticesBell } from './notices-bell';
import { SidebarMenu } from './sidebar-menu';
import { UserPopover } from './user-popover';
import { UserSummary } from './user-summary';
import { BrandName } from './brand-name';

/**
 * The kingdom's name from Kingdom Settings (empty until leadership sets one). Shares the settings
 * page's query, so a save shows at once.
 */
function useKingdomName(): string {
  const kingdom = useApi(createKingdomApi);
  const settings = useQuery({
    queryKey: kingdomKeys.settings,
    queryFn: () => kingdom.settings(),
    throwOnError: false, // the brand falls back to the app's name; pages show their own errors
  });
  return settings.data?.kingdomName.trim() ?? '';
}

/** The tab's title: the kingdom's name before the app's, when there is one. */
function useDocumentTitle(kingdomName: string) {
  const intl = useIntl();
  const appName = intl.formatMessage({ id: 'app.name' });
  useEffect(() => {
    document.title = kingdomName ? `${kingdomName} · ${appName}` : appName;
  }, [kingdomName, appName]);
}

function Brand({ kingdomName }: { kingdomName: string }) {
  return (
    <Link href="/" className="flex h-14 min-w-0 items-center gap-2 border-b border-border px-5 text-lg font-bold" data-testid="brand">
      <svg viewBox="0 0 32 32" className="h-6 w-6 shrink-0 text-primary" aria-hidden="true">
        <path fill="currentColor" d="M4 26h24l-2-14-6 5-4-9-4 9-6-5z" />
      </svg>
      <BrandName kingdomName={kingdomName} />
    </Link>
  );
}

function SidebarBody({ rank, kingdomName }: { rank: unknown; kingdomName: string }) {
  return (
    <>
      <Brand kingdomName={kingdomName} />
      <UserSummary />
      <div className="flex-1 overflow-y-auto">
        <SidebarMenu rank={rank} />
      </div>
    </>
  );
}

/** The signed-in shell: sidebar (a drawer below 992 px), top bar, page and footer. */
export default function Shell({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ShellFrame>{children}</ShellFrame>
    </QueryClientProvider>
  );
}

function ShellFrame({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const kingdomName = useKingdomName();
  useDocumentTitle(kingdomName);
  const navigation = useChild('navigation');
  const expanded = useSelector(navigation, (s) => s.matches('expanded'));
  const rank = useSelector(useChild('auth'), (s) => s.context.user?.rank);
  const { navStyle, layoutType } = useSelector(useChild('settings'), (s) => s.context);
  const [location] = useLocation();

  useEffect(() => {
    navigation.send({ type: 'ROUTE_CHANGED', path: location });
  }, [location, navigation]);

  return (
    <div className="flex min-h-screen" data-layout={layoutType} data-nav-style={navStyle}>
      <aside aria-label={intl.formatMessage({ id: 'app.sidebar' })} className="sticky top-0 hidden h-screen w-64 shrink-0 flex-col border-e border-border bg-sidebar lg:flex">
        <SidebarBody rank={rank} kingdomName={kingdomName} />
      </aside>
      <Sheet open={expanded} onOpenChange={(open) => navigation.send({ type: open ? 'OPEN' : 'CLOSE' })}>
        <SheetContent aria-describedby={undefined}>
          <SheetTitle className="sr-only">
            <FormattedMessage id="app.name" />
          </SheetTitle>
          <SidebarBody rank={rank} kingdomName={kingdomName} />
        </SheetContent>
      </Sheet>
      <div className="flex min-w-0 flex-1 flex-col">
        <header
          className={cn(
            'z-30 flex h-14 items-center gap-3 border-b border-border bg-card/95 px-4 backdrop-blur',
            navStyle === 'fixed' && 'sticky top-0',
          )}
        >
          <button
            type="button"
            className="flex h-9 w-9 cursor-pointer items-center justify-center rounded-md hover:bg-muted lg:hidden"
            aria-label={intl.formatMessage({ id: expanded ? 'app.closeMenu' : 'app.openMenu' })}
            aria-expanded={expanded}
            onClick={() => navigation.send({ type: 'TOGGLE' })}
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
              <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <ConnectionIndicator />
          <div className="ms-auto flex items-center gap-3">
            <NoticesBell />
            <LanguagePicker />
            <UserPopover />
          </div>
        </header>
        <main className={cn('flex-1 p-4 sm:p-6', layoutType === 'boxed' && 'mx-auto w-full max-w-6xl')}>
          {/* A route above the user's rank shows the access-denied page instead of its forms;
              a page that cannot load (its code or its data out of reach): Disconnected and a Retry */}
          {mayOpen(location, rank) ? <ContentBoundary resetKey={location}>{children}</ContentBoundary> : <AccessDeniedPage />}
        </main>
        <Footer />
      </div>
    </div>
  );
}
