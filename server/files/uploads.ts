import path from 'node:path';

/** Where uploaded item images live: DATA_DIR/uploads, served at /uploads/ (server/http/uploads.ts). */
export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** The names this server gives uploads; nothing else under /uploads/ is served. */
export const UPLOAD_NAME = /^[a-f0-9]{32}\.(png|jpg|webp|gif)$/;
