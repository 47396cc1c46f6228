/**
 * The benchmark's plumbing: child processes (the server under test, the ws baseline) that are
 * always killed, client worker threads spoken to one request at a time, CPU readings from /proc and
 * the open-file limit.
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FromWorker, Progress, ToWorker, Collected, ItemSpec } from './common';

// ── child processes ──────────────────────────────────────────────────────────────────────────
const children = new Set<ChildProcess>();

/** Kills whatever child is still running (process exit, Ctrl-C, a failure). */
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** A temporary folder for this run, removed with the child processes when the run exits or is interrupted (SIGINT, SIGTERM). */
export function tempDirRemovedOnExit(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const cleanup = () => {
    killChildren();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      cleanup();
      process.exit(130);
    });
  }
  return dir;
}

export interface Child<T> {
  info: T;
  pid: number;
  /** Writes one command line to the child's stdin and resolves with the JSON line it answers. */
  ask<A>(command: string, timeoutMs?: number): Promise<A>;
  stop(): Promise<void>;
}

/**
 * Runs `node --import tsx <script> …args` and resolves with the JSON line it prints when ready.
 * Its stdin stays a pipe: when this process dies, the child reads its end and stops.
 */
export function spawnChild<T>(script: string, args: string[], nodeArgs: string[] = [], timeoutMs = 60_000): Promise<Child<T>> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      const info = JSON.parse(buffer.slice(0, newline)) as T;
      buffer = buffer.slice(newline + 1);
      // later lines answer ask(), in order
      const waiting: ((line: string) => void)[] = [];
      child.stdout!.on('data', (more: Buffer) => {
        buffer += more.toString();
        for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + 1);
          waiting.shift()?.(line);
        }
      });
      resolve({
        info,
        pid: child.pid!,
        ask: <A>(command: string, askTimeoutMs = 60_000) =>
          new Promise<A>((answer, fail) => {
            const timer = setTimeout(() => fail(new Error(`${script}: no answer to "${command}" within ${askTimeoutMs} ms`)), askTimeoutMs);
            waiting.push((line) => {
              clearTimeout(timer);
              const parsed = JSON.parse(line) as A & { error?: string };
              if (parsed.error) fail(new Error(`${script}: ${parsed.error}`));
              else answer(parsed);
            });
            child.stdin!.write(`${command}\n`);
          }),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const hard = setTimeout(() => child.kill('SIGKILL'), 8000);
            child.once('exit', () => {
              clearTimeout(hard);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

// ── CPU ──────────────────────────────────────────────────────────────────────────────────────
let clockTicks = 0;
/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; NaN off Linux. */
export function cpuSecondsOf(pid: number): number {
  try {
    clockTicks ||= Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds the whole machine has spent busy (every process, interrupts, steal) so far, from
 * /proc/stat; the benchmark subtracts its own processes to see what else ran during a phase.
 */
export function machineBusySeconds(): number {
  try {
    clockTicks ||= Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
    const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) / clockTicks;
  } catch {
    return NaN;
  }
}

// ── the open-file limit ──────────────────────────────────────────────────────────────────────
export interface FdLimit {
  soft: number;
  hard: number;
}

function limitsOfSelf(): { soft: number; hard: number } {
  const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
  const [soft, hard] = (line ?? '').split(/\s{2,}/).slice(1, 3).map((v) => (v === 'unlimited' ? Infinity : Number(v)));
  return { soft, hard };
}

/**
 * The clients' process holds the client end of every socket (1,000 to the server and 1,000 to the
 * ws baseline, both connected at once); each server holds its 1,000 ends plus its database and
 * listeners. Node raises its soft RLIMIT_NOFILE to the hard limit when it starts, so `ulimit -n`
 * (the shell's soft limit) does not matter, only the hard one: the children inherit it.
 */
export function checkFdLimit(needed: number): FdLimit {
  let soft = NaN;
  let hard = NaN;
  try {
    ({ soft, hard } = limitsOfSelf());
  } catch {
    // not Linux: trust the shell
    soft = Number(execSync('ulimit -Sn', { shell: '/bin/sh' }).toString().trim());
    hard = Number(execSync('ulimit -Hn', { shell: '/bin/sh' }).toString().trim());
  }
  if (soft < needed) {
    throw new Error(`This process may open ${soft} files (hard limit ${hard}); the benchmark needs ${needed}. Raise the hard limit (ulimit -Hn ${needed * 2} as root, or limits.conf) and run again.`);
  }
  return { soft, hard };
}

// ── client workers ───────────────────────────────────────────────────────────────────────────
class ClientWorker {
  private readonly worker: Worker;
  private pending: { kind: FromWorker['kind']; resolve: (m: FromWorker) => void; reject: (e: Error) => void } | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  /** Set when the thread died: every later ask fails with it instead of waiting forever. */
  private failure: Error | null = null;

  constructor(index: number) {
    this.worker = new Worker(new URL('./client-worker-boot.mjs', import.meta.url), { name: `clients-${index}` });
    this.worker.on('message', (msg: FromWorker) => {
      const pending = this.pending;
      if (!pending) return;
      this.pending = null;
      if (msg.kind === 'error') pending.reject(new Error(`client worker ${index}: ${msg.message}`));
      else if (msg.kind !== pending.kind) pending.reject(new Error(`client worker ${index}: expected ${pending.kind}, got ${msg.kind}`));
      else pending.resolve(msg);
    });
    const die = (error: Error) => {
      this.failure ??= error;
      this.pending?.reject(error);
      this.pending = null;
    };
    this.worker.on('error', (error) => die(new Error(`client worker ${index} failed: ${error.message}`)));
    this.worker.on('exit', (code) => die(new Error(`client worker ${index} exited (${code})`)));
  }

  /** Sends a command and waits for the answer of `kind`; one command at a time. */
  ask<K extends FromWorker['kind']>(msg: ToWorker, kind: K): Promise<Extract<FromWorker, { kind: K }>> {
    const run = () =>
      new Promise<Extract<FromWorker, { kind: K }>>((resolve, reject) => {
        if (this.failure) return reject(this.failure);
        this.pending = { kind, resolve: resolve as (m: FromWorker) => void, reject };
        this.worker.postMessage(msg);
      });
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Fire and forget (a phase starts; progress is asked for separately). */
  tell(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class ClientPool {
  readonly workers: ClientWorker[];

  constructor(count: number) {
    this.workers = Array.from({ length: count }, (_, i) => new ClientWorker(i));
  }

  /**
   * `url`: one server for every worker; one per worker (several server processes, each holding the
   * sockets of one worker); or `{ perSocket }`: every worker spreads its sockets over those servers.
   */
  connect(url: string | string[] | { perSocket: string[] }, shares: { tokens: string[]; items: ItemSpec[] }[], concurrency: number) {
    const urlOf = (i: number) => (Array.isArray(url) ? url[i % url.length] : typeof url === 'string' ? url : url.perSocket);
    return Promise.all(this.workers.map((w, i) => w.ask({ cmd: 'connect', url: urlOf(i), tokens: shares[i].tokens, items: shares[i].items, concurrency }, 'connected')));
  }

  startPhase(rate: number, startAt: number, count: number): void {
    this.workers.forEach((w, i) => w.tell({ cmd: 'phase', rate, offset: i, stride: this.workers.length, startAt, count }));
  }

  async progress(): Promise<Progress[]> {
    return (await Promise.all(this.workers.map((w) => w.ask({ cmd: 'progress' }, 'progress')))).map((m) => m.progress);
  }

  async collect(): Promise<Collected[]> {
    return (await Promise.all(this.workers.map((w) => w.ask({ cmd: 'collect' }, 'collected')))).map((m) => m.data);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ask({ cmd: 'close' }, 'closed')));
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
