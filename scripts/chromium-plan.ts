/**
 * Before `npm test`: the browser tests drive Debian's Chromium. What to do when it is missing —
 * install it where that can be done without asking (root with apt-get, as `.ci/run` does), or stop
 * at once with the exact command to run — decided here, apart from the doing, so it is tested.
 */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumFacts {
  /** CHROMIUM_PATH when set, otherwise Debian's path. */
  path: string;
  /** Whether CHROMIUM_PATH named it. */
  explicit: boolean;
  /** Whether an executable file is there. */
  found: boolean;
  /** The user id (null where there is none, e.g. Windows). */
  uid: number | null;
  /** Whether apt-get is there. */
  aptGet: boolean;
}

export type ChromiumPlan =
  | { kind: 'ready' }
  | { kind: 'install'; say: string; commands: string[][] }
  | { kind: 'stop'; message: string };

export const APT_INSTALL = ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'];

export function chromiumPlan(facts: ChromiumFacts): ChromiumPlan {
  if (facts.found) return { kind: 'ready' };
  if (facts.explicit) {
    return {
      kind: 'stop',
      message: `CHROMIUM_PATH is ${facts.path}, where there is no Chromium. Point it at a Chromium or Chrome executable, or unset it to use Debian's ${DEFAULT_CHROMIUM}.`,
    };
  }
  if (facts.aptGet && facts.uid === 0) {
    return {
      kind: 'install',
      say: `The browser tests need Debian's Chromium at ${DEFAULT_CHROMIUM}; installing it (apt-get install chromium)…`,
      commands: [['apt-get', 'update', '-qq'], APT_INSTALL],
    };
  }
  if (facts.aptGet) {
    return {
      kind: 'stop',
      message: `The browser tests need Debian's Chromium at ${DEFAULT_CHROMIUM}, which is missing. Install it, then run npm test again:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n`,
    };
  }
  return {
    kind: 'stop',
    message: `The browser tests need Chromium, and there is none at ${DEFAULT_CHROMIUM} (nor apt-get to install it). Install Chromium or Chrome, then run the tests with its path:\n\n  CHROMIUM_PATH=/path/to/chromium npm test\n`,
  };
}
