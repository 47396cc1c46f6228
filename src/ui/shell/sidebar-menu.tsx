import * as Collapsible from '@radix-ui/react-collapsible';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { cn } from '../lib/cn';
import { isSubmenu, menuFor, type MenuLink, type MenuSubmenu } from './menu';

function ItemLink({ link, nested = false }: { link: MenuLink; nested?: boolean }) {
  const [location] = useLocation();
  const active = location === link.path;
  return (
    <Link
      href={link.path}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'block rounded-md py-2 pe-3 text-sm transition-colors hover:bg-muted',
        nested ? 'ps-9' : 'ps-4',
        active ? 'bg-primary/10 font-medium text-foreground' : 'text-foreground/85',
      )}
    >
      <FormattedMessage id={link.labelId} />
    </Link>
  );
}

function Submenu({ entry }: { entry: MenuSubmenu }) {
  const [location] = useLocation();
  const [open, setOpen] = useState(() => entry.children.some((c) => c.path === location));
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen}>
      <Collapsible.Trigger className="flex w-full cursor-pointer items-center justify-between rounded-md py-2 ps-4 pe-3 text-start text-sm text-foreground/85 hover:bg-muted">
        <span>
          <FormattedMessage id={entry.labelId} />
        </span>
        <span aria-hidden="true" className={cn('text-xs transition-transform rtl:-scale-x-100', open && 'rotate-90')}>
          ›
        </span>
      </Collapsible.Trigger>
      <Collapsible.Content>
        {entry.children.map((child) => (
          <ItemLink key={child.path} link={child} nested />
        ))}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

export function SidebarMenu({ rank }: { rank: unknown }) {
  const intl = useIntl();
  return (
    <nav aria-label={intl.formatMessage({ id: 'app.mainMenu' })} className="flex flex-col gap-5 px-3 py-4">
      {menuFor(rank).map((group) => (
        <div key={group.id} data-menu-group={group.id}>
          <h3 className="mb-1 px-4 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
            <FormattedMessage id={group.labelId} />
          </h3>
          {group.entries.map((entry) =>
            isSubmenu(entry) ? <Submenu key={entry.labelId} entry={entry} /> : <ItemLink key={entry.path} link={entry} />,
          )}
        </div>
      ))}
    </nav>
  );
}
