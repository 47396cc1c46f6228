// `npm test` runs this first (npm's pretest): Chromium is there, or it is installed, or the tests
// stop before any starts, with the command to run. See scripts/chromium-plan.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { DEFAULT_CHROMIUM, chromiumPlan } from './chromium-plan';

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const explicit = !!process.env.CHROMIUM_PATH?.trim();
const path = explicit ? process.env.CHROMIUM_PATH!.trim() : DEFAULT_CHROMIUM;
const facts = () => ({
  path,
  explicit,
  found: executable(path),
  uid: typeof process.getuid === 'function' ? process.getuid() : null,
  aptGet: executable('/usr/bin/apt-get'),
});

const plan = chromiumPlan(facts());
if (plan.kind === 'stop') {
  console.error(plan.message);
  process.exit(1);
}
if (plan.kind === 'install') {
  console.log(plan.say);
  for (const [command, ...args] of plan.commands) {
    const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0) {
      console.error(`\`${[command, ...args].join(' ')}\` failed (${run.status ?? run.signal}). Install Chromium yourself (apt-get install chromium), then run npm test again.`);
      process.exit(1);
    }
  }
  if (chromiumPlan(facts()).kind !== 'ready') {
    console.error(`apt-get finished, but there is still no Chromium at ${path}.`);
    process.exit(1);
  }
}
