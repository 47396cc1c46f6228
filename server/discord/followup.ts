import type { RESTPatchAPIInteractionOriginalResponseJSONBody } from 'discord-api-types/v10';

/** A PNG sent with a message, named as its embed refers to it (`attachment://name`). */
export interface CardFile {
  name: string;
  png: Buffer;
}

/** How long one follow-up call may take; the interaction's token lasts 15 minutes. */
const FOLLOW_UP_TIMEOUT_MS = 10_000;
/** A rate-limited follow-up waits for Discord's retry_after when it is this short, once; longer, it gives up. */
const FOLLOW_UP_WAIT_MAX_MS = 5_000;

/**
 * Completes a deferred answer: PATCH of the interaction's original message through the interaction
 * webhook (no bot token: the interaction's own token), with the card as a multipart attachment.
 * Null when Discord took it, else the status or error (the caller logs it; the asker sees the
 * "thinking" message expire, as with any bot Discord cannot reach).
 */
export async function completeDeferred(
  apiUrl: string,
  applicationId: string,
  token: string,
  body: RESTPatchAPIInteractionOriginalResponseJSONBody,
  file: CardFile | null,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  const url = `${apiUrl}/webhooks/${encodeURIComponent(applicationId)}/${encodeURIComponent(token)}/messages/@original`;
  const request = (): RequestInit => {
    if (!file) return { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(FOLLOW_UP_TIMEOUT_MS) };
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ ...body, attachments: [{ id: 0, filename: file.name }] }));
    form.append('files[0]', new Blob([new Uint8Array(file.png)], { type: 'image/png' }), file.name);
    return { method: 'PATCH', body: form, signal: AbortSignal.timeout(FOLLOW_UP_TIMEOUT_MS) };
  };
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetchImpl(url, request());
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? 'no answer in time' : 'unreachable';
    }
    if (response.ok) return null;
    const answer = (await response.json().catch(() => ({}))) as { retry_after?: number };
    const waitMs = Math.ceil((answer.retry_after ?? Infinity) * 1000);
    if (response.status !== 429 || attempt > 0 || !(waitMs <= FOLLOW_UP_WAIT_MAX_MS)) return `Discord answered ${response.status}`;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
