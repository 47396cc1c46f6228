import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Times are epoch milliseconds (INTEGER). Points are whole numbers. */
export interface UsersTable {
  id: Generated<number>;
  /** Stored lowercased. */
  email: string;
  /** Unique without regard to ASCII case (COLLATE NOCASE). */
  username: string;
  playerid: string;
  password_hash: string;
  rank: ColumnType<string, string | undefined, string>;
  balance: ColumnType<number, number | undefined, number>;
  reserved: ColumnType<number, number | undefined, number>;
  locale: ColumnType<string, string | undefined, string>;
  created_at: number;
}

export interface SessionsTable {
  /** The JWT's jti. */
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Append-only (triggers refuse UPDATE and DELETE): every change of a balance, with who and why. */
export interface PointsTransactionsTable {
  id: Generated<number>;
  user_id: number;
  delta: number;
  kind: 'grant' | 'deduct' | 'purchase' | 'refund' | 'automatic';
  reason: string;
  actor_id: number | null;
  balance_after: number;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  points_transactions: PointsTransactionsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type PointsTransactionRow = Selectable<PointsTransactionsTable>;
