/**
 * The open TCP connections of one socket server, in the order they were last heard from (a
 * WebSocket frame, a pong, the upgrade request), those not yet authenticated apart: at the cap, a
 * new connection takes the place of the one silent the longest, a connection not yet authenticated
 * (or not yet upgraded) before any authenticated one. So idle connections from many addresses
 * never keep out one that speaks.
 */
export class ConnectionRoom<T> {
  // Sets iterate in insertion order: deleting and adding again moves one to the end
  private readonly anonymous = new Set<T>();
  private readonly authenticated = new Set<T>();

  constructor(readonly cap: number) {}

  get size(): number {
    return this.anonymous.size + this.authenticated.size;
  }

  get full(): boolean {
    return this.size >= this.cap;
  }

  has(connection: T): boolean {
    return this.anonymous.has(connection) || this.authenticated.has(connection);
  }

  /** The connection to close to make room: silent the longest, not yet authenticated first. */
  quietest(): T | undefined {
    for (const connection of this.anonymous) return connection;
    for (const connection of this.authenticated) return connection;
    return undefined;
  }

  /** A new connection, not yet heard from. */
  add(connection: T): void {
    this.anonymous.add(connection);
  }

  /** It sent something: the last to be closed among its kind. */
  heard(connection: T): void {
    for (const set of [this.anonymous, this.authenticated]) {
      if (set.delete(connection)) return void set.add(connection);
    }
  }

  /** It authenticated (as it spoke). */
  authenticate(connection: T): void {
    if (this.anonymous.delete(connection) || this.authenticated.delete(connection)) this.authenticated.add(connection);
  }

  remove(connection: T): void {
    this.anonymous.delete(connection);
    this.authenticated.delete(connection);
  }
}
