/** A unique bid request id, made where the bid is placed (never inside a machine); crypto.randomUUID needs a secure context, so not only that. */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
