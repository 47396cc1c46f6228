import { QueryClientProvider } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { useChild } from '../app-context';
import { Sheet, SheetContent, SheetTitle } from '../components/sheet';
import { cn } from '../lib/cn';
import { queryClient } from '../lib/query-client';
import { ConnectionIndicator } from './connection-indicator';
import { Footer } from './footer';
import { LanguagePicker } from './language-picker';
import { SidebarMenu } from './sidebar-menu';
import { UserPopover } from './user-popover';
import { UserSummary } from './user-summary';

function Brand() {
  return (
    <Link href="/" className="flex h-14 items-center gap-2 border-b border-border px-5 text-lg font-bold">
      <svg viewBox="0 0 32 32" className="h-6 w-6 text-primary" aria-hidden="true">
        <path fill="currentColor" d="M4 26h24l-2-14-6 5-4-9-4 9-6-5z" />
      </svg>
      <FormattedMessage id="app.name" />
    </Link>
  );
}

function SidebarBody({ rank }: { rank: unknown }) {
  return (
    <>
      <Brand />
      <UserSummary />
      <div className="flex-1 overflow-y-auto">
        <SidebarMenu rank={rank} />
      </div>
    </>
  );
}

/** The signed-in shell: sidebar (a drawer below 992 px), top bar, page and footer. */
export default function Shell({ children }: { children: ReactNode }) {
  const intl = useIntl();
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
      <aside data-testid="sidebar" className="sticky top-0 hidden h-screen w-64 shrink-0 flex-col border-e border-border bg-sidebar lg:flex">
        <SidebarBody rank={rank} />
      </aside>
      <Sheet open={expanded} onOpenChange={(open) => navigation.send({ type: open ? 'OPEN' : 'CLOSE' })}>
        <SheetContent data-testid="drawer" aria-describedby={undefined}>
          <SheetTitle className="sr-only">
            <FormattedMessage id="app.name" />
          </SheetTitle>
          <SidebarBody rank={rank} />
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
            data-testid="menu-button"
            onClick={() => navigation.send({ type: 'TOGGLE' })}
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
              <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <ConnectionIndicator />
          <div className="ms-auto flex items-center gap-3">
            <LanguagePicker />
            <UserPopover />
          </div>
        </header>
        <main className={cn('flex-1 p-4 sm:p-6', layoutType === 'boxed' && 'mx-auto w-full max-w-6xl')}>
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </main>
        <Footer />
      </div>
    </div>
  );
}
