import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { FormattedDate, FormattedMessage } from 'react-intl';
import { useLocation, useSearch } from 'wouter';
import { createDiscordApi, discordKeys } from '../../../api/discord';
import { useChild } from '../../app-context';
import { useApi } from '../../lib/use-api';
import { Alert } from '../alert';
import { Button } from '../button';
import { Card, CardTitle } from '../card';
import { QueryError } from '../query-error';

/**
 * Account Settings' Discord card: the Discord user linked to this account, with Unlink; when the
 * page was opened from `/link`'s answer (`?discord=CODE`), a confirmation first, so a link sent by
 * someone else never links an account by being opened.
 */
export function DiscordLinkCard() {
  const discord = useApi(createDiscordApi);
  const client = useQueryClient();
  const username = useSelector(useChild('auth'), (s) => s.context.user?.username ?? '');
  const code = new URLSearchParams(useSearch()).get('discord');
  const [location, navigate] = useLocation();
  const link = useQuery({ queryKey: discordKeys.link, queryFn: () => discord.link() });
  const redeem = useMutation({
    mutationFn: (c: string) => discord.redeem(c),
    onSuccess: () => {
      navigate(location, { replace: true }); // the code is used: off the address bar
      return client.invalidateQueries({ queryKey: discordKeys.link });
    },
  });
  const unlink = useMutation({ mutationFn: () => discord.unlink(), onSuccess: () => client.invalidateQueries({ queryKey: discordKeys.link }) });

  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="discord.link.title" />
      </CardTitle>
      <div className="grid gap-3">
        <QueryError error={link.error ?? redeem.error ?? unlink.error} />
        {redeem.isSuccess && (
          <Alert variant="success">
            <FormattedMessage id="discord.link.done" />
          </Alert>
        )}
        {code && !redeem.isSuccess && (
          <div className="grid gap-2 rounded-md border border-primary/40 p-3">
            <p className="text-sm">
              <FormattedMessage id="discord.link.confirm" values={{ username: <bdi className="font-semibold">{username}</bdi> }} />
            </p>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" disabled={redeem.isPending} onClick={() => redeem.mutate(code)}>
                <FormattedMessage id="discord.link.confirmButton" />
              </Button>
              <Button size="sm" variant="outline" onClick={() => navigate(location, { replace: true })}>
                <FormattedMessage id="discord.link.cancel" />
              </Button>
            </div>
          </div>
        )}
        {link.data?.discordUserId ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm">
              <FormattedMessage
                id="discord.link.linked"
                values={{
                  id: (
                    <span dir="ltr" className="font-mono">
                      {link.data.discordUserId}
                    </span>
                  ),
                  date: <FormattedDate value={link.data.linkedAt ?? 0} year="numeric" month="short" day="numeric" />,
                }}
              />
            </p>
            <Button size="sm" variant="outline" disabled={unlink.isPending} onClick={() => unlink.mutate()}>
              <FormattedMessage id="discord.link.unlink" />
            </Button>
          </div>
        ) : (
          link.isSuccess && (
            <p className="text-sm text-muted-foreground">
              <FormattedMessage id="discord.link.none" />
            </p>
          )
        )}
      </div>
    </Card>
  );
}
