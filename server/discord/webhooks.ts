import { DISCORD_WEBHOOK_KINDS, type DiscordWebhookKind } from '../../src/protocol/discord';
import type { DiscordConfig } from './settings';
import { DISCORD_TEXTS, say } from './texts';

/** How long one webhook call may take before it counts as Discord being down. */
const WEBHOOK_TIMEOUT_MS = 5_000;

/** One message to a channel webhook; null when Discord took it, else why not, in words an admin can act on. */
export async function postToWebhook(url: string, content: string, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  let response: Response;
  try {
    response = await fetchImpl(`${url}?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content, allowed_mentions: { parse: [] } }),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? `Discord did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s.` : 'Discord could not be reached.';
  }
  if (response.ok) return null;
  const answer = (await response.json().catch(() => ({}))) as { retry_after?: number; message?: string };
  if (response.status === 429) return `Discord asked to wait ${Math.ceil(answer.retry_after ?? 1)} s (rate limit): try again then.`;
  if (response.status === 401 || response.status === 404) return `Discord refused this webhook (${response.status}): it was deleted or its address is wrong. Copy it again from the channel's Integrations.`;
  return `Discord answered ${response.status}${answer.message ? `: ${answer.message.slice(0, 200)}` : ''}.`;
}

/** POST discord/test: one message to every webhook set, in the announcement language; what was sent and what failed. */
export async function sendTestMessages(config: DiscordConfig, fetchImpl: typeof fetch = fetch): Promise<{ sent: DiscordWebhookKind[]; errors: { kind: DiscordWebhookKind; text: string }[] }> {
  const t = DISCORD_TEXTS[config.language];
  const kinds = DISCORD_WEBHOOK_KINDS.filter((kind) => config.webhooks[kind]);
  const results = await Promise.all(kinds.map(async (kind) => ({ kind, error: await postToWebhook(config.webhooks[kind] as string, say(t.test, { kind }), fetchImpl) })));
  return { sent: results.filter((r) => r.error === null).map((r) => r.kind), errors: results.flatMap((r) => (r.error === null ? [] : [{ kind: r.kind, text: r.error }])) };
}
