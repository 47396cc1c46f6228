import { useIntl } from 'react-intl';
import { cn } from '../../lib/cn';
import { compactNumber, exactNumber } from '../../lib/stats-format';

/** A number readable at a glance (1.2B) with the exact value on hover; "—" when not scanned. */
export function Num({ value, signed = false, className }: { value: number | null | undefined; signed?: boolean; className?: string }) {
  const { locale } = useIntl();
  if (value === null || value === undefined) {
    return (
      <span className={cn('text-muted-foreground', className)}>
        —
      </span>
    );
  }
  const exact = exactNumber(value, locale, signed);
  const short = compactNumber(value, locale, signed);
  return (
    <bdi className={cn('tabular-nums', className)} title={short === exact ? undefined : exact} data-value={value}>
      {short}
    </bdi>
  );
}

/** A change since the compared scan, green up and red down. */
export function Change({ value, className }: { value: number | null | undefined; className?: string }) {
  if (value === null || value === undefined) return null;
  return <Num value={value} signed className={cn('text-xs', value > 0 ? 'text-success' : value < 0 ? 'text-danger' : 'text-muted-foreground', className)} />;
}
