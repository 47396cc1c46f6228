import type { ComponentProps } from 'react';
import { useIntl } from 'react-intl';
import { Input } from '../input';

type FilterProps = Omit<ComponentProps<typeof Input>, 'value' | 'onChange'> & { value: string; onChange: (value: string) => void };

/** The governors' two text filters: what each is named and hinted with. */
const FILTERS = {
  search: { type: 'search', placeholderId: 'dashboard.searchPlaceholder', labelId: 'dashboard.search' },
  alliance: { type: undefined, placeholderId: 'dashboard.alliancePlaceholder', labelId: 'dashboard.allianceFilter' },
} as const;

function GovernorFilter({ kind, value, onChange, ...props }: FilterProps & { kind: keyof typeof FILTERS }) {
  const intl = useIntl();
  const { type, placeholderId, labelId } = FILTERS[kind];
  return (
    <Input
      type={type}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      maxLength={64}
      placeholder={intl.formatMessage({ id: placeholderId })}
      aria-label={intl.formatMessage({ id: labelId })}
      dir="auto"
      {...props}
    />
  );
}

/** The governors' search box (a name or an id), as every governors' table has it. */
export const GovernorSearch = (props: FilterProps) => <GovernorFilter kind="search" {...props} />;

/** The governors' alliance filter (a tag or a name). */
export const AllianceFilter = (props: FilterProps) => <GovernorFilter kind="alliance" {...props} />;
