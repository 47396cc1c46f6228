import { startServer } from './app';
import path from 'node:path';
import { ConfigError } from './config';
import { DB_FILE } from './db/open';
import { describePostgres } from './db/postgres';

/** Starts the server from the environment, prints where it listens, and stops cleanly on SIGINT/SIGTERM. */
export async function serve(): Promise<void> {
  let server;
  try {
    server = await startServer();
  } catch (error) {
    console.error(`Kingdom could not start: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(`Kingdom is running:
  web and API     ${server.httpUrl}   (OpenAPI: ${server.httpUrl}/openapi.json, docs: ${server.httpUrl}/docs)
  auction socket  ${server.auctionUrl}
  user socket     ${server.userUrl}
  data            ${server.config.dataDir}
  database        ${server.config.databaseUrl ? `PostgreSQL ${describePostgres(server.config.databaseUrl)}` : `SQLite ${path.join(server.config.dataDir, DB_FILE)}`}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping…`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Kingdom did not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
