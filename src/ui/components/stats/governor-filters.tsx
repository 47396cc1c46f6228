import type { ComponentProps } from 'react';
import { useIntl } from 'react-intl';
import { Input } from '../input';

type FilterProps = Omit<ComponentProps<typeof Input>, 'value' | 'onChange'> & { value: string; onChange: (value: string) => void };

/** The governors' search box (a name or an id), as every governors' table has it. */
export function GovernorSearch({ value, onChange, ...props }: FilterProps) {
  const intl = useIntl();
  return (
    <Input
      type="search"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      maxLength={64}
      placeholder={intl.formatMessage({ id: 'dashboard.searchPlaceholder' })}
      aria-label={intl.formatMessage({ id: 'dashboard.search' })}
      dir="auto"
      {...props}
    />
  );
}

/** The governors' alliance filter (a tag or a name). */
export function AllianceFilter({ value, onChange, ...props }: FilterProps) {
  const intl = useIntl();
  return (
    <Input
      value={value}
      onChange={(e) => onChange(e.target.value)}
      maxLength={64}
      placeholder={intl.formatMessage({ id: 'dashboard.alliancePlaceholder' })}
      aria-label={intl.formatMessage({ id: 'dashboard.allianceFilter' })}
      dir="auto"
      {...props}
    />
  );
}
