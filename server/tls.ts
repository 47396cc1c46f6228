import fs from 'node:fs';
import type { Config } from './config';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The PEM files of TLS_CERT + TLS_KEY, or null for plain http/ws. */
export function readTls(config: Pick<Config, 'tlsCert' | 'tlsKey'>): TlsFiles | null {
  if (!config.tlsCert || !config.tlsKey) return null;
  try {
    return { cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey) };
  } catch (error) {
    throw new Error(`Cannot read TLS_CERT/TLS_KEY: ${(error as Error).message}`, { cause: error });
  }
}
