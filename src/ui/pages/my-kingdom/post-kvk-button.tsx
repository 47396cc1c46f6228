import { useMutation } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { createDiscordApi } from '../../../api/discord';
import { useApi } from '../../lib/use-api';
import { Button } from '../../components/button';
import { useErrorText } from '../../components/query-error';

/**
 * The KvK Dashboard's "Post to Discord": the standings card of what the dashboard shows (season,
 * window, alliance; top 10) goes to the Discord channel of KvK standings. The server queues it and
 * sends it once; its refusal (no kvk webhook set, a rate limit) is said beside the button.
 */
export function PostKvkButton({ seasonId, window, alliance }: { seasonId: number; window?: string; alliance?: string }) {
  const discord = useApi(createDiscordApi);
  const errorText = useErrorText();
  const post = useMutation({ mutationFn: () => discord.postKvk(seasonId, { window: window || undefined, alliance: alliance || undefined, top: 10 }) });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button size="sm" variant="outline" disabled={post.isPending} onClick={() => post.mutate()}>
        <FormattedMessage id="kvk.postDiscord" />
      </Button>
      <span role="status" className={post.isError ? 'text-sm text-danger' : 'text-sm text-muted-foreground'}>
        {post.isSuccess && <FormattedMessage id="kvk.postedDiscord" />}
        {post.isError && <bdi>{errorText(post.error)}</bdi>}
      </span>
    </span>
  );
}
