import { DISCORD_WEBHOOK_KINDS, type DiscordWebhookKind } from '../../src/protocol/discord';
import type { DiscordConfig } from './settings';
import { refusal, unreachable } from './refusals';
import { DISCORD_TEXTS } from './texts';
import { fill } from '../../src/protocol/texts';

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
    return unreachable(error, WEBHOOK_TIMEOUT_MS);
  }
  if (response.ok) return null;
  return refusal(response, (status) =>
    status === 401 || status === 404 ? `Discord refused this webhook (${status}): it was deleted or its address is wrong. Copy it again from the channel's Integrations.` : null,
  );
}

/** POST discord/test: one message to every webhook set, in the announcement language; what was sent and what failed. */
export async function sendTestMessages(config: DiscordConfig, fetchImpl: typeof fetch = fetch): Promise<{ sent: DiscordWebhookKind[]; errors: { kind: DiscordWebhookKind; text: string }[] }> {
  const t = DISCORD_TEXTS[config.language];
  const kinds = DISCORD_WEBHOOK_KINDS.filter((kind) => config.webhooks[kind]);
  const results = await Promise.all(kinds.map(async (kind) => ({ kind, error: await postToWebhook(config.webhooks[kind] as string, fill(t.test, { kind }), fetchImpl) })));
  return { sent: results.filter((r) => r.error === null).map((r) => r.kind), errors: results.flatMap((r) => (r.error === null ? [] : [{ kind: r.kind, text: r.error }])) };
}
