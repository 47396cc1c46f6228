/**
 * The server suite on PostgreSQL (vitest project `server-pg`): one throwaway cluster for the run
 * (scripts/pg-cluster.ts), a template database migrated once, and each test server's database
 * copied from it (tests/server/test-database.ts). Nothing is left running afterwards.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startPgCluster } from '../../scripts/pg-cluster';
import { openPostgres } from '../../server/db/open';

export const TEMPLATE_DB = 'kingdom_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgBaseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPgCluster();
  try {
    const admin = new pg.Client({ connectionString: `${cluster.baseUrl}postgres` });
    await admin.connect();
    await admin.query(`create database ${TEMPLATE_DB}`);
    await admin.end();
    const db = await openPostgres(`${cluster.baseUrl}${TEMPLATE_DB}`);
    await db.destroy();
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('pgBaseUrl', cluster.baseUrl);
  return () => cluster.stop();
}
