import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether the port can be listened on (nobody holds it). */
async function isFree(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

const started: ChildProcess[] = [];
afterEach(() => {
  // whatever a failed test left running, in npm's process group
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

/** `npm start` on free ports, with an up-to-date (stand-in) build so nothing is built. */
async function npmStart() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-start-'));
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>Kingdom</title>');
  const ports = [await freePort(), await freePort(), await freePort()];
  const child = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(ports[0]),
      AUCTION_PORT: String(ports[1]),
      USER_PORT: String(ports[2]),
      DATA_DIR: path.join(dir, 'data'),
      DIST_DIR: path.join(dir, 'dist'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a failed test can clear everything it started
  });
  started.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Kingdom is running')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, ports, exited, dir };
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops everything on %s to npm’s own process: the three ports are free again', async (signal) => {
    const { child, ports, exited, dir } = await npmStart();
    for (const port of ports) expect(await isFree(port)).toBe(false);
    child.kill(signal);
    await exited;
    // npm exits once its child has: by then nothing may hold the ports
    for (const port of ports) expect(await isFree(port)).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});
