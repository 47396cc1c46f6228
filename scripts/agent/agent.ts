import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'ws';
import { AGENT_TEXTS as SAY, BOT_MSG, BOT_CLOSE, type BotProgress, type BotState, type LogLevel } from '../../src/protocol/bots';
import { fill } from '../../src/protocol/texts';

/**
 * The reference scan agent: runs beside RokTracker, speaks the bot
 * protocol, uploads each finished scan file of its folder once and answers the console's commands.
 *
 * When is a file finished? RokTracker (kingdom/scanner.py) rewrites its whole .csv/.xlsx/.jsonl
 * after EVERY governor it scans (GovernorDataHandler.save: pandas to_csv/to_excel, each an
 * open-write-close), so a file that is closed and briefly unchanged may still grow. A file counts as
 * finished when its size and modification time have not changed for `settleMs` (longer than a
 * governor takes), or as soon as the scan command this agent ran has exited (the writer is gone).
 */
export interface AgentOptions {
  server: string;
  token: string;
  watchDir: string;
  scanCommand?: string;
  /** Where it remembers what it sent; default DIR/.kingdom-agent.json. */
  stateFile?: string;
  settleMs?: number;
  pollMs?: number;
  statusEveryMs?: number;
  version?: string;
  /** Where the agent's own log goes besides the server (default: stdout). */
  print?: (level: LogLevel, text: string) => void;
}

interface SentFile {
  sha256: string;
  size: number;
  sentAt: number;
  outcome: 'applied' | 'duplicate' | 'refused';
  scanId?: number;
  note?: string;
}

interface AgentState {
  v: 1;
  sent: Record<string, SentFile>;
}

interface Seen {
  size: number;
  mtimeMs: number;
  since: number;
}

const SCAN_FILE = /\.(csv|xlsx|jsonl)$/i;
export const AGENT_VERSION = '1.0.0';
export const AGENT_COMMANDS = ['scan-folder', 'sent', 'answer'];
/** Lines queued while offline, and lines sent a second (the server takes 50). */
const LOG_QUEUE_MAX = 500;
const LOG_LINES_PER_SECOND = 20;
const PROMPT = /\?\s*$|\[y\/n\]|press enter/i;
const PROGRESS = /Governor\s+(\d+)\s+of\s+(\d+)/i;

export function socketUrl(server: string): string {
  const url = new URL(server);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = url.pathname.replace(/\/$/, '') + '/bots';
  url.search = '';
  return url.toString();
}

export class Agent {
  private readonly o: Required<Omit<AgentOptions, 'scanCommand' | 'stateFile'>> & { scanCommand?: string; stateFile: string };
  private ws: WebSocket | null = null;
  private welcomed = false;
  private stopped = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private statusTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private logTimer: NodeJS.Timeout | null = null;
  private readonly logQueue: { level: LogLevel; text: string }[] = [];
  private state: BotState = 'idle';
  private message: string | undefined;
  private progress: BotProgress | undefined;
  private child: ChildProcess | null = null;
  private scanStartedAt = 0;
  private scanEndedAt = 0;
  private readonly seen = new Map<string, Seen>();
  private readonly remembered: AgentState;
  private uploading = false;
  private polling: Promise<void> | null = null;
  /** Resolves when the agent said hello and the server welcomed it (tests and the bench wait on it). */
  onWelcome: (() => void) | null = null;
  /** Called after each upload attempt's outcome is stored. */
  onSent: ((name: string, sent: SentFile) => void) | null = null;

  constructor(options: AgentOptions) {
    this.o = {
      settleMs: 120_000,
      pollMs: 2_000,
      statusEveryMs: 10_000,
      version: AGENT_VERSION,
      print: (level, text) => console.log(`${new Date().toISOString()} ${level.padEnd(5)} ${text}`),
      ...options,
      stateFile: options.stateFile ?? path.join(options.watchDir, '.kingdom-agent.json'),
    };
    this.remembered = this.readState();
  }

  start(): void {
    const watching = { dir: this.o.watchDir, seconds: Math.round(this.o.settleMs / 1000) };
    this.log('info', this.o.scanCommand ? fill(SAY.watching, { ...watching, command: this.o.scanCommand }) : fill(SAY.watchingNoCommand, watching));
    this.connect();
    this.pollTimer = setInterval(() => void this.poll(), this.o.pollMs);
    this.statusTimer = setInterval(() => this.sendStatus(), this.o.statusEveryMs);
    void this.poll();
  }

  /** Signals the scan command: its whole process group where there is one, so no grandchild outlives a stop. */
  private signalScan(signal: NodeJS.Signals): void {
    const child = this.child;
    if (!child) return;
    if (process.platform !== 'win32' && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
        return;
      } catch {
        /* the group is gone already: signal the shell itself */
      }
    }
    child.kill(signal);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.reconnectTimer, this.logTimer]) if (t) clearTimeout(t);
    for (const t of [this.statusTimer, this.pollTimer]) if (t) clearInterval(t);
    this.signalScan('SIGTERM');
    await this.polling;
    const ws = this.ws;
    if (ws && ws.readyState <= WebSocket.OPEN) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'Agent stopping');
        setTimeout(resolve, 1000).unref();
      });
    }
  }

  /** Files it has sent, by name. */
  sentFiles(): Record<string, SentFile> {
    return { ...this.remembered.sent };
  }

  // ── the connection ──────────────────────────────────────────────────────────────────────
  private connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(socketUrl(this.o.server));
    this.ws = ws;
    this.welcomed = false;
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: BOT_MSG.BOT_HELLO, token: this.o.token, version: this.o.version, commands: AGENT_COMMANDS }));
    });
    ws.on('message', (data) => this.onFrame(String(data)));
    ws.on('error', () => undefined);
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      if (this.stopped) return;
      const refused = code === BOT_CLOSE.unauthorized || code === BOT_CLOSE.revoked;
      this.attempt += 1;
      // a refused token waits long (an admin must rotate it and restart the agent); a drop retries with backoff
      const base = refused ? 60_000 : Math.min(30_000, 1000 * 2 ** Math.min(this.attempt - 1, 5));
      const delay = Math.round(base * (0.75 + Math.random() * 0.5));
      this.o.print(refused ? 'error' : 'warn', `Disconnected (${code}${reason.length ? ` ${reason.toString()}` : ''}); connecting again in ${Math.round(delay / 1000)} s.`);
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private send(frame: object): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  private onFrame(text: string): void {
    let frame: { type?: string; id?: string; command?: string; args?: string[]; error?: string; bot?: { name: string } };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return;
    }
    if (frame.type === BOT_MSG.BOT_WELCOME) {
      this.welcomed = true;
      this.attempt = 0;
      this.log('info', fill(SAY.connected, { server: this.o.server, bot: frame.bot?.name ?? '?' }));
      this.sendStatus();
      this.flushLog();
      this.onWelcome?.();
    } else if (frame.type === BOT_MSG.BOT_ERROR) {
      this.o.print('warn', `Server: ${frame.error ?? ''}`);
    } else if (frame.type === BOT_MSG.COMMAND && typeof frame.id === 'string' && typeof frame.command === 'string') {
      const id = frame.id;
      void this.command(frame.command, frame.args ?? []).then(
        ({ ok, output }) => this.send({ type: BOT_MSG.COMMAND_RESULT, id, ok, output: output.slice(0, 8000) }),
        (error: unknown) => this.send({ type: BOT_MSG.COMMAND_RESULT, id, ok: false, output: String(error).slice(0, 8000) }),
      );
    }
  }

  private sendStatus(): void {
    this.send({ type: BOT_MSG.BOT_STATUS, state: this.state, ...(this.progress ? { progress: this.progress } : {}), ...(this.message ? { message: this.message.slice(0, 500) } : {}) });
  }

  private setState(state: BotState, message?: string): void {
    this.state = state;
    this.message = message;
    if (state !== 'scanning' && state !== 'paused' && state !== 'needs-human') this.progress = undefined;
    this.sendStatus();
  }

  /** One line of the agent's log: printed, and sent to the server (queued while offline, at most 20 a second). */
  log(level: LogLevel, text: string): void {
    this.o.print(level, text);
    this.logQueue.push({ level, text: text.slice(0, 2000) });
    if (this.logQueue.length > LOG_QUEUE_MAX) this.logQueue.splice(0, this.logQueue.length - LOG_QUEUE_MAX);
    this.flushLog();
  }

  private flushLog(): void {
    if (this.logTimer || !this.welcomed) return;
    const batch = this.logQueue.splice(0, LOG_LINES_PER_SECOND);
    for (const line of batch) this.send({ type: BOT_MSG.BOT_LOG, ...line });
    if (this.logQueue.length > 0 || batch.length === LOG_LINES_PER_SECOND) {
      this.logTimer = setTimeout(() => {
        this.logTimer = null;
        this.flushLog();
      }, 1000);
      this.logTimer.unref();
    }
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────
  private async command(name: string, args: string[]): Promise<{ ok: boolean; output: string }> {
    this.log('info', fill(SAY.command, { command: [name, ...args].join(' ') }));
    switch (name) {
      case 'ping':
        return { ok: true, output: fill(SAY.pong, { version: this.o.version, state: this.state }) };
      case 'start-scan':
        return this.startScan();
      case 'stop':
        if (!this.child) return { ok: false, output: SAY.noScan };
        this.signalScan('SIGTERM');
        return { ok: true, output: SAY.stopping };
      case 'pause':
        if (!this.child || this.state === 'paused') return { ok: false, output: this.child ? SAY.alreadyPaused : SAY.noScan };
        if (process.platform === 'win32') return { ok: false, output: SAY.noPauseOnWindows };
        this.signalScan('SIGSTOP');
        this.setState('paused');
        return { ok: true, output: SAY.paused };
      case 'resume':
        if (!this.child) return { ok: false, output: SAY.noScan };
        if (this.state === 'paused') this.signalScan('SIGCONT');
        this.setState('scanning');
        return { ok: true, output: SAY.resumed };
      case 'scan-folder': {
        await this.poll(true);
        return { ok: true, output: fill(SAY.lookedAt, { dir: this.o.watchDir, count: Object.keys(this.remembered.sent).length }) };
      }
      case 'sent': {
        const list = Object.entries(this.remembered.sent)
          .sort((a, b) => b[1].sentAt - a[1].sentAt)
          .slice(0, 20)
          .map(([file, s]) => fill(s.outcome === 'applied' ? SAY.sentImported : s.outcome === 'duplicate' ? SAY.sentDuplicate : SAY.sentRefused, { file, scan: s.scanId ?? '?' }));
        return { ok: true, output: list.length ? list.join('\n') : SAY.nothingSent };
      }
      case 'answer': {
        if (!this.child?.stdin) return { ok: false, output: SAY.noScan };
        this.child.stdin.write(`${args.join(' ')}\n`);
        if (this.state === 'needs-human') this.setState('scanning');
        return { ok: true, output: args.length ? fill(SAY.answered, { answer: args.join(' ') }) : SAY.answeredEnter };
      }
      default:
        return { ok: false, output: fill(SAY.unknownCommand, { command: name }) };
    }
  }

  private startScan(): { ok: boolean; output: string } {
    if (!this.o.scanCommand) return { ok: false, output: SAY.notConfigured };
    if (this.child) return { ok: false, output: SAY.alreadyScanning };
    // its own process group (not on Windows): the shell and whatever it starts are signalled together
    const child = spawn(this.o.scanCommand, { shell: true, cwd: this.o.watchDir, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    this.child = child;
    this.scanStartedAt = Date.now();
    this.progress = undefined;
    this.setState('scanning');
    const onLine = (level: LogLevel) => (line: string) => this.scanOutput(level, line);
    lines(child.stdout, onLine('info'));
    lines(child.stderr, onLine('warn'));
    child.on('error', (error) => this.log('error', fill(SAY.couldNotStart, { error: error.message })));
    child.on('close', (code, signal) => {
      this.child = null;
      this.scanEndedAt = Date.now();
      if (code === 0) {
        this.log('info', SAY.finished);
        this.setState('idle');
      } else {
        const why = signal ? fill(SAY.stoppedBySignal, { signal }) : fill(SAY.endedWithCode, { code: String(code) });
        this.log(signal ? 'warn' : 'error', why);
        this.setState(signal ? 'idle' : 'error', signal ? undefined : why);
      }
      // the writer is gone: whatever it wrote is finished now
      void this.poll(true);
    });
    return { ok: true, output: fill(SAY.started, { pid: child.pid ?? '?' }) };
  }

  /** A line of the scanner's output: logged, read for its progress ("Governor 12 of 300") and for a question waiting for someone. */
  private scanOutput(level: LogLevel, line: string): void {
    const text = line.trimEnd();
    if (!text) return;
    this.log(level, text);
    const progress = PROGRESS.exec(text);
    if (progress) {
      const done = Number(progress[1]);
      const total = Number(progress[2]);
      const elapsed = (Date.now() - this.scanStartedAt) / 1000;
      const etaSeconds = done > 0 && total >= done ? Math.round((elapsed / done) * (total - done)) : null;
      this.progress = { done, total, etaSeconds };
      if (this.state === 'needs-human') this.state = 'scanning';
      this.message = undefined;
    } else if (PROMPT.test(text) && this.state === 'scanning') {
      this.setState('needs-human', text.slice(0, 500));
    }
  }

  // ── the folder ──────────────────────────────────────────────────────────────────────────
  /** Looks at the folder; `now` skips the wait for files that changed before the scan command ended. */
  poll(now = false): Promise<void> {
    if (this.polling) return this.polling;
    this.polling = this.pollOnce(now).finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async pollOnce(force: boolean): Promise<void> {
    if (this.uploading) return;
    let names: string[];
    try {
      names = await fs.promises.readdir(this.o.watchDir);
    } catch (error) {
      this.log('error', fill(SAY.cannotRead, { path: this.o.watchDir, error: (error as Error).message }));
      return;
    }
    const at = Date.now();
    const ready: string[] = [];
    for (const name of names.sort()) {
      if (!SCAN_FILE.test(name) || name.startsWith('.') || name.startsWith('~$')) continue;
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(path.join(this.o.watchDir, name));
      } catch {
        continue;
      }
      if (!stat.isFile() || stat.size === 0) continue;
      const was = this.seen.get(name);
      if (!was || was.size !== stat.size || was.mtimeMs !== stat.mtimeMs) {
        this.seen.set(name, { size: stat.size, mtimeMs: stat.mtimeMs, since: at });
        // a file seen for the first time is finished only once it has stayed the same for a poll
        continue;
      }
      const sent = this.remembered.sent[name];
      if (sent && sent.size === stat.size && this.seenSha(name) === sent.sha256) continue;
      const settled = at - was.since >= this.o.settleMs;
      const writerGone = !this.child && this.scanEndedAt > 0 && stat.mtimeMs <= this.scanEndedAt;
      if (settled || (force && writerGone)) ready.push(name);
    }
    if (ready.length === 0) return;
    this.uploading = true;
    try {
      for (const name of ready) await this.upload(name);
    } finally {
      this.uploading = false;
    }
  }

  private readonly shaCache = new Map<string, { size: number; mtimeMs: number; sha: string }>();
  /** The SHA-256 of a file as last seen (cached by size and time), so a file sent once is never read again. */
  private seenSha(name: string): string | null {
    const seen = this.seen.get(name);
    if (!seen) return null;
    const cached = this.shaCache.get(name);
    if (cached && cached.size === seen.size && cached.mtimeMs === seen.mtimeMs) return cached.sha;
    try {
      const sha = crypto.createHash('sha256').update(fs.readFileSync(path.join(this.o.watchDir, name))).digest('hex');
      this.shaCache.set(name, { size: seen.size, mtimeMs: seen.mtimeMs, sha });
      return sha;
    } catch {
      return null;
    }
  }

  private async upload(name: string): Promise<void> {
    const file = path.join(this.o.watchDir, name);
    let bytes: Buffer;
    try {
      bytes = await fs.promises.readFile(file);
    } catch (error) {
      this.log('warn', fill(SAY.cannotRead, { path: name, error: (error as Error).message }));
      return;
    }
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    const known = this.remembered.sent[name];
    if (known?.sha256 === sha256) return;
    if (known) this.log('warn', fill(SAY.changedSince, { file: name }));
    this.log('info', fill(SAY.uploading, { file: name, bytes: bytes.length }));
    const auth = { Authorization: `Bearer ${this.o.token}` };
    const base = this.o.server.replace(/\/$/, '');
    try {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      const previewed = await fetch(`${base}/scans/preview`, { method: 'POST', headers: auth, body: form });
      const preview = (await previewed.json().catch(() => ({}))) as { preview?: { token: string; rows: number; valid: number; warnings: unknown[] }; error?: string };
      if (previewed.status === 409) return this.remember(name, { sha256, size: bytes.length, sentAt: Date.now(), outcome: 'duplicate', note: preview.error }, 'warn', fill(SAY.alreadyOnServer, { file: name, message: preview.error ?? '' }));
      if (previewed.status === 400 || previewed.status === 413) return this.remember(name, { sha256, size: bytes.length, sentAt: Date.now(), outcome: 'refused', note: preview.error }, 'error', fill(SAY.refused, { file: name, message: preview.error ?? previewed.status }));
      if (!previewed.ok || !preview.preview) throw new Error(preview.error ?? `preview answered ${previewed.status}`);
      const p = preview.preview;
      if (p.valid < p.rows) this.log('warn', fill(SAY.rowsLeftOut, { file: name, bad: p.rows - p.valid, rows: p.rows }));
      const applied = await fetch(`${base}/scans/apply`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ token: p.token, skipInvalid: true }) });
      const scan = (await applied.json().catch(() => ({}))) as { scan?: { id: number; rows: number }; error?: string };
      if (applied.status === 409) return this.remember(name, { sha256, size: bytes.length, sentAt: Date.now(), outcome: 'duplicate', note: scan.error }, 'warn', fill(SAY.alreadyOnServer, { file: name, message: scan.error ?? '' }));
      if (applied.status === 400) return this.remember(name, { sha256, size: bytes.length, sentAt: Date.now(), outcome: 'refused', note: scan.error }, 'error', fill(SAY.refused, { file: name, message: scan.error ?? '' }));
      if (!applied.ok || !scan.scan) throw new Error(scan.error ?? `apply answered ${applied.status}`);
      this.remember(name, { sha256, size: bytes.length, sentAt: Date.now(), outcome: 'applied', scanId: scan.scan.id }, 'info', fill(SAY.imported, { file: name, scan: scan.scan.id, rows: scan.scan.rows }));
    } catch (error) {
      // the server is down or busy: the file stays unsent and is tried again at a later look
      this.log('warn', fill(SAY.tryLater, { file: name, error: (error as Error).message }));
    }
  }

  private remember(name: string, sent: SentFile, level: LogLevel, text: string): void {
    this.remembered.sent[name] = sent;
    this.writeState();
    this.log(level, text);
    this.onSent?.(name, sent);
  }

  private readState(): AgentState {
    try {
      const value = JSON.parse(fs.readFileSync(this.o.stateFile, 'utf8')) as AgentState;
      if (value?.v === 1 && typeof value.sent === 'object' && value.sent) return value;
    } catch {
      // none yet (or unreadable: started afresh, said below)
      if (fs.existsSync(this.o.stateFile)) this.o.print('warn', `${this.o.stateFile} could not be read: starting with nothing sent.`);
    }
    return { v: 1, sent: {} };
  }

  /** Written whole to a temporary file, then renamed: a crash never leaves half a state file. */
  private writeState(): void {
    const tmp = `${this.o.stateFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.remembered, null, 2));
    fs.renameSync(tmp, this.o.stateFile);
  }
}

function lines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    const parts = rest.split(/\r?\n|\r/);
    rest = parts.pop() ?? '';
    for (const part of parts) onLine(part);
    // a question waits for its answer without a newline
    if (rest.length > 4000 || PROMPT.test(rest)) {
      onLine(rest);
      rest = '';
    }
  });
  stream.on('end', () => {
    if (rest) onLine(rest);
  });
}
