import { FormattedMessage, FormattedNumber } from 'react-intl';
import { cn } from '../../lib/cn';
import { Td } from '../table';
import { Num } from './num';
import { GovernorLink } from './scan-parts';
import { cva, type VariantProps } from 'class-variance-authority';

// Table cells the statistics, KvK, migrants and automatic points tables share.

/** A stat in a table: readable at a glance (1.2B), exact on hover, at the inline end. */
export function NumCell({ value, signed, className }: { value: number | null | undefined; signed?: boolean; className?: string }) {
  return (
    <Td className={cn('text-end', className)}>
      <Num value={value} signed={signed} />
    </Td>
  );
}

/** A count in a table (members, entries, points): every digit, at the inline end. */
export function CountCell({ value, className }: { value: number; className?: string }) {
  return (
    <Td className={cn('text-end tabular-nums', className)}>
      <FormattedNumber value={value} />
    </Td>
  );
}

/** A governor's name (a link to their page, "—" when not scanned) above their id. */
/** A governor's name over its id; `linked` (default): the name opens the governor's page (leadership's). */
export function GovernorName({ governorId, name, linked = true }: { governorId: number; name: string | null; linked?: boolean }) {
  return (
    <span className="grid min-w-0">
      {name === null ? (
        <span className="text-muted-foreground">—</span>
      ) : linked ? (
        <GovernorLink governorId={governorId} name={name} className="truncate" />
      ) : (
        <bdi className="truncate font-medium">{name || `#${governorId}`}</bdi>
      )}
      <span dir="ltr" className="text-start text-xs tabular-nums text-muted-foreground">
        {governorId}
      </span>
    </span>
  );
}

const captionVariants = cva('block text-xs text-muted-foreground', {
  variants: { until: { md: 'md:hidden', lg: 'lg:hidden' } },
  defaultVariants: { until: 'md' },
});

/** A cell's column name, shown only below the breakpoint where the table becomes a list of cards (its header hidden). */
export function CellCaption({ id, until }: { id: string } & VariantProps<typeof captionVariants>) {
  return (
    <span className={captionVariants({ until })}>
      <FormattedMessage id={id} />
    </span>
  );
}
