import type { ExportFormat } from '../protocol/exports';
import * as z from 'zod/mini';
import { ApiError } from './client';

/**
 * What the REST modules share (each is a function of the one ky instance, src/api/http.ts):
 * answers checked against a schema ({result: false, error} becomes an ApiError with the server's
 * text and the status) and CSV downloads fetched with the token (a plain link could not send it).
 */
const failure = z.object({ result: z.literal(false), error: z.string() });

export async function answer<S extends z.core.$ZodType>(response: Response, schema: S): Promise<z.infer<S>> {
  const body: unknown = await response.json().catch(() => null);
  const ok = z.safeParse(schema, body);
  if (ok.success && response.ok) return ok.data;
  const bad = failure.safeParse(body);
  if (bad.success) throw new ApiError(bad.data.error, response.status);
  if (ok.success) return ok.data;
  throw new ApiError(response.ok ? 'The server sent an answer this app cannot read.' : `${response.status} ${response.statusText}`, response.status);
}

/** Query parameters without the empty ones (an empty filter means "any"). */
export function params(values: Record<string, string | number | boolean | undefined | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = String(value);
  }
  return out;
}

/** A list's download: CSV or XLSX, its columns titled in `lang` (the reader's language). */
export interface ExportFile {
  format: ExportFormat;
  lang: string;
}

/** A CSV (or XLSX, or zip) file fetched with the bearer token; the server's error text if it refuses. */
export async function csvBlob(response: Response): Promise<{ blob: Blob; filename: string | null }> {
  if (!response.ok) {
    const bad = failure.safeParse(await response.json().catch(() => null));
    throw new ApiError(bad.success ? bad.data.error : `${response.status} ${response.statusText}`, response.status);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return { blob: await response.blob(), filename: match ? decodeURIComponent(match[1]) : null };
}

/** Epoch ms of the start (or the end) of a local calendar day given as YYYY-MM-DD; undefined if empty. */
export function dayStart(day: string): number | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d).getTime();
}
export function dayEnd(day: string): number | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + 1).getTime() - 1;
}
