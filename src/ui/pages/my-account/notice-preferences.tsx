import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { createDiscordApi, discordKeys } from '../../../api/discord';
import { createNoticesApi, noticesKeys } from '../../../api/notices';
import { ENDING_LEAD_MINUTES, NOTICE_CHANNELS, NOTICE_KINDS, type EndingLead, type NoticeChannel, type NoticePreferences } from '../../../protocol/notices';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Label } from '../../components/label';
import { NativeSelect } from '../../components/native-select';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { useApi } from '../../lib/use-api';

const PREFERENCES_KEY = noticesKeys.preferences;
/** Channels that send a Discord direct message: offered only to an account with Discord linked. */
const needsDiscord = (channel: NoticeChannel) => channel === 'discord' || channel === 'both';

/** The form, once the saved choices are known; it keeps the choices being made until they are saved. */
function PreferencesForm({ saved, discordLinked }: { saved: NoticePreferences; discordLinked: boolean }) {
  const intl = useIntl();
  const api = useApi(createNoticesApi);
  const client = useQueryClient();
  const [draft, setDraft] = useState(saved);
  const save = useMutation({
    mutationFn: (preferences: NoticePreferences) => api.savePreferences(preferences),
    onSuccess: (preferences) => {
      client.setQueryData(PREFERENCES_KEY, preferences);
      setDraft(preferences);
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate(draft);
  }
  return (
    <form className="grid gap-4" onSubmit={submit} aria-label={intl.formatMessage({ id: 'settings.notices.title' })}>
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="settings.notices.intro" />
      </p>
      {!discordLinked && (
        <p className="text-sm" id="notices-discord-off">
          <FormattedMessage id="settings.notices.discordOff" />
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        {NOTICE_KINDS.map((kind) => (
          <div key={kind} className="grid gap-1.5">
            <Label htmlFor={`notice-${kind}`}>
              <FormattedMessage id={`settings.notices.kind.${kind}`} />
            </Label>
            <NativeSelect
              id={`notice-${kind}`}
              className="w-full"
              value={draft.channels[kind]}
              aria-describedby={discordLinked ? undefined : 'notices-discord-off'}
              onChange={(e) => setDraft({ ...draft, channels: { ...draft.channels, [kind]: e.target.value as NoticeChannel } })}
            >
              {NOTICE_CHANNELS.map((channel) => (
                <option key={channel} value={channel} disabled={!discordLinked && needsDiscord(channel)}>
                  {intl.formatMessage({ id: `settings.notices.channel.${channel}` })}
                </option>
              ))}
            </NativeSelect>
          </div>
        ))}
        <div className="grid gap-1.5">
          <Label htmlFor="notice-lead">
            <FormattedMessage id="settings.notices.lead" />
          </Label>
          <NativeSelect
            id="notice-lead"
            className="w-full"
            value={draft.endingLeadMinutes}
            onChange={(e) => setDraft({ ...draft, endingLeadMinutes: Number(e.target.value) as EndingLead })}
          >
            {ENDING_LEAD_MINUTES.map((minutes) => (
              <option key={minutes} value={minutes}>
                {intl.formatMessage({ id: 'settings.notices.leadOption' }, { minutes })}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <QueryError error={save.error} />
      {save.isSuccess && (
        <Alert variant="success">
          <FormattedMessage id="settings.notices.saved" />
        </Alert>
      )}
      <Button type="submit" disabled={save.isPending} className="justify-self-start">
        <FormattedMessage id="settings.notices.save" />
      </Button>
    </form>
  );
}

/**
 * Account Settings' notices card: per kind, in the app, by Discord direct message (when the account
 * is linked), both or none, and how long before the end "ending soon" comes.
 */
export function NoticePreferencesCard() {
  const api = useApi(createNoticesApi);
  const discord = useApi(createDiscordApi);
  const preferences = useQuery({ queryKey: PREFERENCES_KEY, queryFn: () => api.preferences(), staleTime: 0 });
  // the Discord card's own query: linking or unlinking there changes what is offered here at once
  const link = useQuery({ queryKey: discordKeys.link, queryFn: () => discord.link() });
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="settings.notices.title" />
      </CardTitle>
      <QueryError error={preferences.error} />
      {preferences.data && !link.isPending ? (
        <PreferencesForm saved={preferences.data} discordLinked={Boolean(link.data?.discordUserId)} />
      ) : (
        !preferences.isError && <Skeleton className="h-40" />
      )}
    </Card>
  );
}
