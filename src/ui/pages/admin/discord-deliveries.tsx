import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { createDiscordApi, discordKeys, type DiscordOutbox } from '../../../api/discord';
import { Button } from '../../components/button';
import { Card, CardHeader } from '../../components/card';
import { QueryError } from '../../components/query-error';
import { CardRow, Table, TableHead, Td } from '../../components/table';
import { useApi } from '../../lib/use-api';
import { When } from './shared';

/** The domain events Discord is told of (admin.discord.kind.*); another stays its code. */
const KINDS: ReadonlySet<string> = new Set(['item.started', 'item.sold', 'item.no-buyer', 'scan.applied', 'rule.applied']);

type Delivery = DiscordOutbox['deliveries'][number];

function RetryButton({ delivery }: { delivery: Delivery }) {
  const discord = useApi(createDiscordApi);
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () => discord.retry(delivery.id),
    onSettled: () => client.invalidateQueries({ queryKey: discordKeys.outbox }),
  });
  return (
    <div className="grid justify-items-end gap-1">
      <Button
        size="sm"
        variant="outline"
        className="whitespace-nowrap"
        disabled={retry.isPending}
        onClick={() => retry.mutate()}
      >
        <FormattedMessage id="admin.discord.retry" />
      </Button>
      <QueryError error={retry.error} />
    </div>
  );
}

/**
 * Discord announcements that failed (Discord did not take them for a day, or refused them) or wait
 * for more than 15 minutes, with a Retry for each; nothing at all while every one went out.
 */
export function DiscordDeliveries() {
  const intl = useIntl();
  const discord = useApi(createDiscordApi);
  const outbox = useQuery({ queryKey: discordKeys.outbox, queryFn: () => discord.outbox(), refetchInterval: 60_000 });
  if (outbox.error) return <QueryError error={outbox.error} />;
  if (!outbox.data || outbox.data.failed + outbox.data.stale === 0) return null;
  const { failed, stale, deliveries } = outbox.data;
  const title = intl.formatMessage({ id: 'admin.discord.title' });
  return (
    <Card className="grid min-w-0 gap-3" aria-label={title}>
      <CardHeader title={title} className="mb-0" />
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="admin.discord.summary" values={{ failed, stale }} />
      </p>
      <Table columns={5} minWidth="0" className="max-md:block md:min-w-[40rem]" aria-label={title}>
        <TableHead className="max-md:hidden" columns={['admin.discord.queued', 'admin.discord.announcement', 'admin.discord.status', 'admin.discord.lastError', { id: 'admin.discord.retry', srOnly: true, end: true }]} />
        <tbody className="max-md:grid max-md:gap-2 md:divide-y md:divide-border">
          {deliveries.map((d) => (
            <CardRow key={d.id}>
              <Td className="max-md:col-span-2 max-md:px-1 max-md:text-xs max-md:text-muted-foreground">
                <When at={d.createdAt} />
              </Td>
              <Td className="max-md:px-1">
                <bdi className="block font-medium [overflow-wrap:anywhere]">{d.title || d.kind}</bdi>
                <span className="block text-xs text-muted-foreground">{KINDS.has(d.kind) ? intl.formatMessage({ id: `admin.discord.kind.${d.kind}` }) : d.kind}</span>
              </Td>
              <Td className="max-md:px-1">
                {d.status === 'failed' ? (
                  <span className="text-danger">
                    <FormattedMessage id="admin.discord.failed" values={{ attempts: d.attempts }} />
                  </span>
                ) : (
                  <FormattedMessage id="admin.discord.waiting" values={{ attempts: d.attempts }} />
                )}
              </Td>
              <Td className="max-md:col-span-2 max-md:px-1">
                {/* the server's own words, in English */}
                <bdi dir="ltr" className="text-sm [overflow-wrap:anywhere]">
                  {d.lastError ?? '—'}
                </bdi>
              </Td>
              <Td className="max-md:col-span-2 max-md:px-1 md:text-end">
                <RetryButton delivery={d} />
              </Td>
            </CardRow>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
