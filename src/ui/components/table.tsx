import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

/** A plain data table that scrolls sideways on narrow screens; cells align to the inline start. */
export function Table({ className, minWidth = '40rem', ...props }: ComponentProps<'table'> & { minWidth?: string }) {
  return (
    <div className="max-w-full overflow-x-auto">
      <table className={cn('w-full text-sm', className)} style={{ minWidth }} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return <th className={cn('px-3 py-2 text-start text-xs font-medium text-muted-foreground', className)} {...props} />;
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-2 text-start align-middle', className)} {...props} />;
}
