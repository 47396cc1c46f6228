/**
 * Drawn cards by their content key (the ETag): the most recently used first out of `maxBytes`.
 * The same data, language and theme give the same key, so a card is drawn again only when its data
 * changed (a new scan, a season edit, a sale) or it fell out of the cache.
 */
export class CardCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get(key: string): Buffer | undefined {
    const png = this.entries.get(key);
    if (png) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, png);
    }
    return png;
  }

  set(key: string, png: Buffer): void {
    if (png.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, png);
    this.bytes += png.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
