import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { Card } from '../../components/card';
import { useApi } from '../../lib/use-api';
import { accountKeys, createAccountApi } from '../../../api/account';
import { QueryError } from '../../components/query-error';

/** /my-account/groups: the groups the player belongs to (they decide who may bid on some items). */
export default function GroupsPage({ titleId }: { titleId: string }) {
  const account = useApi(createAccountApi);
  const groups = useQuery({ queryKey: accountKeys.groups, queryFn: () => account.groups() });
  return (
    <div className="grid grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <Card>
        <p className="mb-4 text-sm text-muted-foreground">
          <FormattedMessage id="myGroups.hint" />
        </p>
        {groups.isError && <QueryError error={groups.error} />}
        {groups.isSuccess &&
          (groups.data.length === 0 ? (
            <p className="text-sm">
              <FormattedMessage id="myGroups.none" />
            </p>
          ) : (
            <ul className="flex flex-wrap gap-2">
              {groups.data.map((g) => (
                <li key={g} dir="auto" className="rounded-full bg-muted px-3 py-1 text-sm font-medium">
                  {g}
                </li>
              ))}
            </ul>
          ))}
      </Card>
    </div>
  );
}
