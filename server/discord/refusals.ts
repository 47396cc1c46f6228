/**
 * What to tell an admin when a call to Discord did not go through: the words shared by every call
 * (no answer in time, unreachable, rate limited, any other status); each caller says its own
 * statuses (a refused token, an unknown webhook) first.
 */
export function unreachable(error: unknown, timeoutMs: number): string {
  return (error as Error).name === 'TimeoutError' ? `Discord did not answer within ${timeoutMs / 1000} s.` : 'Discord could not be reached.';
}

/** The sentence for a status the caller has no words of its own for (429 included). */
export async function refusal(response: Response, own: (status: number) => string | null): Promise<string> {
  const answer = (await response.json().catch(() => ({}))) as { retry_after?: number; message?: string };
  const mine = own(response.status);
  if (mine) return mine;
  if (response.status === 429) return `Discord asked to wait ${Math.ceil(answer.retry_after ?? 1)} s (rate limit): try again then.`;
  return `Discord answered ${response.status}${answer.message ? `: ${answer.message.slice(0, 200)}` : ''}.`;
}
