import { cva, type VariantProps } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { cn } from '../../lib/cn';

const tileVariants = cva('min-w-0 rounded-lg border border-border bg-card p-3', {
  variants: { raised: { true: 'shadow-sm', false: '' } },
  defaultVariants: { raised: true },
});

/** A figure in a grid of figures (a `<dl>`): its name, then its value and what goes with it (a change, a share). */
export function StatTile({ labelId, raised, className, children }: { labelId: string; className?: string; children: ReactNode } & VariantProps<typeof tileVariants>) {
  return (
    <div className={cn(tileVariants({ raised }), className)}>
      <dt className="truncate text-xs text-muted-foreground">
        <FormattedMessage id={labelId} />
      </dt>
      <dd className="mt-1 flex flex-wrap items-baseline gap-x-2">{children}</dd>
    </div>
  );
}
