import zlib from 'node:zlib';

/**
 * A zip archive read with its inflated size counted as it inflates, never trusted from the archive:
 * the sizes in a zip's directory are whatever its writer put there, so a 300 KB file that claims
 * small entries can inflate to gigabytes. Entries are found through the central directory (XLSX
 * writers use data descriptors, so local headers often carry no sizes) and each one is inflated as a
 * stream, stopped as soon as the running total passes the limit.
 */
export interface InflateLimits {
  /** The most bytes all kept entries may inflate to, together. */
  maxTotalBytes: number;
  /** The most entries the archive may list. */
  maxEntries: number;
}

export class ZipTooLargeError extends Error {
  constructor(readonly inflatedBytes: number) {
    super(`The archive inflates to more than its limit (stopped after ${inflatedBytes} bytes).`);
    this.name = 'ZipTooLargeError';
  }
}

export class ZipUnreadableError extends Error {
  constructor(reason: string) {
    super(`The archive cannot be read: ${reason}.`);
    this.name = 'ZipUnreadableError';
  }
}

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The entries of `bytes` whose name `keep` accepts, inflated. Throws ZipTooLargeError the moment
 * their inflated bytes pass `limits.maxTotalBytes` (at most one zlib chunk beyond it is ever
 * produced), ZipUnreadableError for anything that is not a plain zip (zip64, encryption, a method
 * other than stored or deflate, entries out of bounds, a damaged deflate stream, a name twice).
 * `progress` hears the running total, for tests.
 */
export async function inflateZip(
  bytes: Buffer,
  keep: (name: string) => boolean,
  limits: InflateLimits,
  progress?: (inflatedBytes: number) => void,
): Promise<ZipEntry[]> {
  const archive = new ZipArchive(bytes, limits, progress);
  const entries: ZipEntry[] = [];
  for (const name of archive.names) if (keep(name)) entries.push({ name, data: await archive.read(name) });
  return entries;
}

/**
 * A zip archive whose entries are inflated one at a time, as streams, on demand: only the entries
 * asked for are ever inflated, and all of them together count against one `limits.maxTotalBytes`
 * (the same errors as inflateZip). A name that appears twice makes the archive unreadable.
 */
export class ZipArchive {
  private readonly entries = new Map<string, DirectoryEntry>();
  private total = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly limits: InflateLimits,
    private readonly progress?: (inflatedBytes: number) => void,
  ) {
    for (const entry of centralDirectory(bytes, limits.maxEntries)) {
      if (this.entries.has(entry.name)) throw new ZipUnreadableError(`the name ${entry.name} appears twice`);
      this.entries.set(entry.name, entry);
    }
  }

  /** The entries' names, in the directory's order. */
  get names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** An entry's inflated bytes, a zlib chunk at a time (a stored entry in one piece). */
  async *chunks(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new ZipUnreadableError(`no entry ${name}`);
    const compressed = entryData(this.bytes, entry);
    if (entry.method === 0) {
      yield this.count(compressed);
      return;
    }
    const inflater = zlib.createInflateRaw();
    inflater.end(compressed);
    try {
      for await (const chunk of inflater) yield this.count(chunk as Buffer);
    } catch (error) {
      if (error instanceof ZipTooLargeError) throw error;
      throw new ZipUnreadableError('a damaged deflate stream');
    } finally {
      inflater.destroy();
    }
  }

  /** An entry inflated whole (for the small parts of an archive). */
  async read(name: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of this.chunks(name)) parts.push(chunk);
    return Buffer.concat(parts);
  }

  private count(chunk: Buffer): Buffer {
    this.total += chunk.length;
    this.progress?.(this.total);
    if (this.total > this.limits.maxTotalBytes) throw new ZipTooLargeError(this.total);
    return chunk;
  }
}

interface DirectoryEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  localOffset: number;
}

function centralDirectory(bytes: Buffer, maxEntries: number): DirectoryEntry[] {
  // the end-of-central-directory record: 22 bytes plus a comment of at most 65,535
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipUnreadableError('no central directory');
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  const offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipUnreadableError('zip64 is not supported');
  if (count > maxEntries) throw new ZipUnreadableError(`more than ${maxEntries} entries`);
  if (offset + size > eocd) throw new ZipUnreadableError('the central directory lies outside the file');
  const entries: DirectoryEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > offset + size || bytes.readUInt32LE(at) !== CENTRAL) throw new ZipUnreadableError('a damaged central directory');
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    if (at + 46 + nameLength > offset + size) throw new ZipUnreadableError('a damaged central directory');
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function entryData(bytes: Buffer, entry: DirectoryEntry): Buffer {
  if (entry.flags & 0x1) throw new ZipUnreadableError('encrypted entries are not supported');
  if (entry.method !== 0 && entry.method !== 8) throw new ZipUnreadableError(`compression method ${entry.method} is not supported`);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw new ZipUnreadableError('a damaged local header');
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipUnreadableError('an entry lies outside the file');
  return bytes.subarray(start, end);
}

/** A plain zip of `entries`, stored (no compression), with honest sizes and checksums. */
export function storedZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
