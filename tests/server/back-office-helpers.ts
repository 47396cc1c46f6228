import { parse } from 'csv-parse/sync';
import type { Answer } from './helpers';

/** A multipart/form-data POST with one file in the field `file`, as a browser's FormData sends it. */
export async function upload(
  server: { httpUrl: string },
  url: string,
  token: string | undefined,
  bytes: Uint8Array | string,
  filename = 'file.bin',
  type = 'application/octet-stream',
): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), filename);
  const response = await fetch(server.httpUrl + url, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** A CSV download parsed back into records (the BOM dropped), header first. */
export function csvRecords(text: string): string[][] {
  return parse(text, { bom: true }) as string[][];
}

/** The smallest valid images of each type (their signatures followed by filler). */
export const IMAGES = {
  png: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a40000000049454e44ae426082', 'hex'),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1), Buffer.from([0xff, 0xd9])]),
  gif: Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(30, 0)]),
  webp: Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(22, 0)]),
};
