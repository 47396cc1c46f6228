import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A real server process, `node --import tsx server/main.ts`. */
export interface Child {
  process: ChildProcess;
  httpUrl: string;
  auctionUrl: string;
  userUrl: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves when its output contains `text` (now or later); rejects after `ms` or when it exits. */
  printed(text: string, ms?: number): Promise<void>;
}

/** Starts the real server over `dataDir` (and `env`) on free ports; resolves once it listens (within `startMs`). */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}, startMs = 15_000): Promise<Child> {
  const [port, auctionPort, userPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), AUCTION_PORT: String(auctionPort), USER_PORT: String(userPort), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of [...waiters]) check();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const printed = (text: string, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!output.includes(text)) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the server did not print "${text}" within ${ms} ms:\n${output.slice(-2000)}`));
      }, ms);
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`the server exited (${code}) before printing "${text}":\n${output.slice(-2000)}`));
      };
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
        child.off('exit', onExit);
      };
      waiters.add(check);
      child.once('exit', onExit);
      check();
    });
  await printed('Kingdom is running', startMs);
  return {
    process: child,
    httpUrl: `http://127.0.0.1:${port}`,
    auctionUrl: `ws://127.0.0.1:${auctionPort}`,
    userUrl: `ws://127.0.0.1:${userPort}`,
    output: () => output,
    printed,
  };
}

/** Sends `signal` and resolves once the process has exited. */
export function killed(child: Child, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return resolve();
    child.process.once('exit', () => resolve());
    child.process.kill(signal);
  });
}
