import pg from 'pg';
import { PG_TYPES } from '../db/postgres';
import { CHANNEL, ORIGIN, readEnvelope, type ClusterEvent } from './events';

/** The advisory lock held by the scheduler's leader, for as long as its listening connection lives. */
export const LEADER_LOCK_KEY = 0x6c656164; // 'lead'

export interface LinkTimings {
  /** How often a process that is not the leader tries to become it. */
  leaderPollMs: number;
  /** The first wait before connecting again, doubled up to maxReconnectMs. */
  reconnectMs: number;
  maxReconnectMs: number;
}

export const LINK_TIMINGS: LinkTimings = { leaderPollMs: 1000, reconnectMs: 100, maxReconnectMs: 5000 };

export interface LinkDeps {
  url: string;
  /**
   * Every event, this process's own too, in the order their transactions committed: each process
   * tells its sockets in that one order (a bid on an item is never told before the bid it beat).
   */
  onEvent(event: ClusterEvent, own: boolean): void;
  /** This process became the scheduler's leader (true: it catches up, and the start waits for that) or stopped being it (false). */
  onLeader(leader: boolean): Promise<void> | void;
  /** The link was lost and is back: events may have been missed meanwhile. */
  onGap(): void;
  onError(error: unknown, what: string): void;
  timings?: LinkTimings;
}

/**
 * One dedicated connection per process to PostgreSQL: it
 * LISTENs to the kingdom's channel, and it holds the scheduler leader's advisory lock. A session
 * lock lives as long as its connection: when the leader dies (even by SIGKILL) PostgreSQL ends its
 * session and frees the lock, and the next process that tries (each tries every second) becomes
 * the leader. When the connection fails it is made again, with growing waits; leadership is given
 * up at once (another process may take it) and tried for again once connected.
 */
export class ClusterLink {
  private client: pg.Client | null = null;
  private leader = false;
  private stopped = false;
  private connected = false;
  private everConnected = false;
  private wait: number;
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly timings: LinkTimings;

  constructor(private readonly deps: LinkDeps) {
    this.timings = deps.timings ?? LINK_TIMINGS;
    this.wait = this.timings.reconnectMs;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** Connects and listens; resolves once listening (the first connection must work: a wrong DATABASE_URL stops the start). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await this.setLeader(false);
    // ending the session frees the leader's lock at once
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.url, types: PG_TYPES, keepAlive: true, application_name: 'kingdom-link' });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL) return;
      const envelope = readEnvelope(message.payload);
      if (!envelope) return;
      this.deps.onEvent(envelope.e, envelope.o === ORIGIN);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    this.client = client;
    this.connected = true;
    this.wait = this.timings.reconnectMs;
    if (this.everConnected) this.deps.onGap();
    this.everConnected = true;
    await this.tryLead();
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    this.connected = false;
    this.deps.onError(error, 'the cluster link to PostgreSQL was lost; connecting again');
    void this.setLeader(false);
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().catch((error: unknown) => {
        this.client = null;
        this.connected = false;
        this.deps.onError(error, 'connecting the cluster link failed; trying again');
        this.wait = Math.min(this.wait * 2, this.timings.maxReconnectMs);
        this.scheduleReconnect();
      });
    }, this.wait);
    this.retryTimer.unref();
  }

  private async tryLead(): Promise<void> {
    if (this.stopped || !this.connected || this.leader || !this.client) return;
    const client = this.client;
    try {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [LEADER_LOCK_KEY]);
      if (rows[0]?.ok && this.client === client) await this.setLeader(true);
    } catch (error) {
      this.deps.onError(error, 'trying for the scheduler lock failed');
    }
    if (!this.leader && !this.stopped) {
      this.pollTimer = setTimeout(() => {
        this.pollTimer = null;
        void this.tryLead();
      }, this.timings.leaderPollMs);
      this.pollTimer.unref();
    }
  }

  private async setLeader(leader: boolean): Promise<void> {
    if (this.leader === leader) return;
    this.leader = leader;
    await this.deps.onLeader(leader);
  }
}
