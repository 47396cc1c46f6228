import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UploadType } from '../../src/protocol/store';
import type { AppContext } from '../context';
import { DomainError, Invalid } from '../errors';
import { hasNul } from '../../src/protocol/http';
import { HTTP_ERRORS } from './errors';

import { UPLOAD_NAME, uploadsDir } from '../files/uploads';

export { UPLOAD_NAME, uploadsDir };

const EXTENSIONS: Record<UploadType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** The image type by the file's first bytes (its signature), whatever its name or the browser says; null for anything else. */
export function detectImage(bytes: Uint8Array): UploadType | null {
  const starts = (sig: number[], at = 0) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
  const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return 'image/gif';
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** Stores an image under a random name (written to a temporary file, then renamed: never half a file under its name); answers its URL. */
export async function saveUpload(dataDir: string, bytes: Buffer, type: UploadType): Promise<string> {
  const dir = uploadsDir(dataDir);
  await fs.promises.mkdir(dir, { recursive: true });
  const name = `${crypto.randomBytes(16).toString('hex')}.${EXTENSIONS[type]}`;
  const temporary = path.join(dir, `.${name}.part`);
  await fs.promises.writeFile(temporary, bytes, { flag: 'wx' });
  await fs.promises.rename(temporary, path.join(dir, name));
  return `/uploads/${name}`;
}

/**
 * multipart/form-data for the routes of this Fastify instance only (the plugin is registered inside
 * an encapsulated one): every other route stays JSON only. Limits are set per read.
 */
export async function acceptMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
}

export interface UploadTexts {
  missing: string;
  tooLarge: string;
}

/**
 * The one file of a multipart/form-data request (form field `file`), read whole into memory up to
 * `maxBytes`, and its plain form fields wherever they come, before the file or after it (every part
 * is read to the end, so how the upload was cut into chunks changes nothing). A 400 with
 * `texts.tooLarge` beyond `maxBytes` (checked on the part's `truncated` flag after the last chunk
 * too: the plugin only looks at it between chunks, so a file cut at the limit could otherwise come
 * back as a shorter, valid-looking file), `texts.missing` without a file or when the request is not
 * multipart at all, HTTP_ERRORS.uploadIncomplete when the body ends before the multipart data does,
 * and HTTP_ERRORS.nulCharacter for a NUL in the file's name or a field. Needs @fastify/multipart
 * registered on the route's instance.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  maxBytes: number,
  texts: UploadTexts,
): Promise<{ bytes: Buffer; filename: string; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new Invalid(texts.missing);
  let file: { bytes: Buffer; filename: string } | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated || bytes.length > maxBytes) throw new Invalid(texts.tooLarge);
        file = { bytes, filename: part.filename };
      } else if (typeof part.value === 'string' && !(part.fieldname in fields)) {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw uploadError(error, texts);
  }
  if (!file || file.bytes.length === 0) throw new Invalid(texts.missing);
  if (hasNul(file.filename) || Object.entries(fields).some(([name, value]) => hasNul(name) || hasNul(value))) throw new Invalid(HTTP_ERRORS.nulCharacter);
  return { ...file, fields };
}

/**
 * A multipart read's failure as the client's 400: too large, not a form we take, or a body cut
 * short (busboy's "Unexpected end of form", "Part terminated early" and the like carry no code).
 * Everything that goes wrong while reading the upload is about the request, not the server.
 */
function uploadError(error: unknown, texts: UploadTexts): DomainError {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new Invalid(texts.tooLarge);
  if (typeof code === 'string' && code.startsWith('FST_') && code !== 'FST_MP_PREMATURE_CLOSE') return new Invalid(texts.missing);
  return new Invalid(HTTP_ERRORS.uploadIncomplete);
}

/**
 * GET /uploads/<name>: the stored images, cached for a year (a name is never reused), never sniffed
 * as another type; an unknown name is the API's JSON 404, not the client's page.
 */
export async function registerUploadsStatic(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = uploadsDir(ctx.config.dataDir);
  fs.mkdirSync(root, { recursive: true });
  await app.register(fastifyStatic, {
    root,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    wildcard: true,
    dotfiles: 'deny',
    cacheControl: false,
    allowedPath: (pathName) => UPLOAD_NAME.test(pathName.replace(/^\//, '')),
    setHeaders(res) {
      res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
    },
  });
}
