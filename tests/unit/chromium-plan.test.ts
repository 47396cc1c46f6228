import { describe, expect, it } from 'vitest';
import { APT_INSTALL, chromiumPlan, type ChromiumFacts } from '../../scripts/chromium-plan';

const debian: ChromiumFacts = { path: '/usr/bin/chromium', explicit: false, found: false, uid: 1000, aptGet: true };

describe('before npm test: Chromium for the browser tests', () => {
  it('goes ahead when Chromium is there', () => {
    expect(chromiumPlan({ ...debian, found: true })).toEqual({ kind: 'ready' });
    expect(chromiumPlan({ ...debian, path: '/opt/chrome/chrome', explicit: true, found: true })).toEqual({ kind: 'ready' });
  });

  it('installs it with apt-get as root, as .ci/run does', () => {
    const plan = chromiumPlan({ ...debian, uid: 0 });
    expect(plan.kind).toBe('install');
    expect(plan.kind === 'install' && plan.commands).toEqual([['apt-get', 'update', '-qq'], APT_INSTALL]);
    expect(APT_INSTALL).toContain('chromium');
  });

  it('stops at once with the exact command when it cannot install (not root)', () => {
    const plan = chromiumPlan(debian);
    expect(plan.kind).toBe('stop');
    expect(plan.kind === 'stop' && plan.message).toContain('sudo apt-get update && sudo apt-get install -y chromium');
  });

  it('without apt-get, says how to point the tests at another Chromium', () => {
    const plan = chromiumPlan({ ...debian, aptGet: false, uid: 0 });
    expect(plan.kind === 'stop' && plan.message).toContain('CHROMIUM_PATH=/path/to/chromium npm test');
  });

  it('never installs over a CHROMIUM_PATH that names nothing: it says so', () => {
    const plan = chromiumPlan({ ...debian, path: '/nowhere/chromium', explicit: true, uid: 0 });
    expect(plan.kind).toBe('stop');
    expect(plan.kind === 'stop' && plan.message).toContain('CHROMIUM_PATH is /nowhere/chromium');
  });
});
