import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './processes';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The process ids under `pid` (children, grandchildren …), from /proc. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
};

const until = async (what: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-agent-'));
let started: number[] = [];
afterAll(() => {
  // a failed run leaves nothing behind either
  for (const pid of started.filter(alive)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run agent', () => {
  it.skipIf(process.platform !== 'linux')('takes its token from KINGDOM_BOT_TOKEN, and `kill PID` of npm stops every process it started', async () => {
    // nothing listens on the port: the agent keeps reconnecting until it is stopped
    const port = await freePort();
    const npm = spawn('npm', ['run', '--silent', 'agent', '--', '--server', `http://127.0.0.1:${port}`, '--watch', dir], {
      cwd: ROOT,
      env: { ...process.env, KINGDOM_BOT_TOKEN: 'kbot_test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (d: Buffer) => (output += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // the agent runs (it says so in its log) with the token from the environment, not the command line
    expect(await until(() => output.includes('Watching ') || npm.exitCode !== null, 60_000), output).toBe(true);
    expect(npm.exitCode, output).toBeNull();
    expect(output).not.toContain('--token is missing');
    started = descendants(npm.pid!);
    expect(started.length).toBeGreaterThan(0);

    npm.kill('SIGTERM');
    expect(await until(() => started.every((pid) => !alive(pid)), 20_000), `still running: ${started.filter(alive).join(', ')}`).toBe(true);
  }, 90_000);
});
