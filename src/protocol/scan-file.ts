import type { Stat } from './scans';
import { fill } from './texts';

/**
 * What a scanner's file holds and how its rows are judged: the header names each column goes by,
 * the scanner's sentinel values, and the texts of a row that cannot be used or is warned about.
 */

export type Column = 'governorId' | 'name' | 'alliance' | 'kingdom' | Stat;

/**
 * Header names seen in the wild (RokTracker v4 to v6 and other scanners), compared with case,
 * spaces and punctuation removed: `Kills (T4+)` is `killst4`, `Governor ID` is `governorid`.
 */
export const HEADER_ALIASES: Record<Column, readonly string[]> = {
  governorId: ['id', 'governorid', 'govid', 'playerid'],
  name: ['name', 'governorname', 'governor'],
  alliance: ['alliance', 'alliancetag', 'tag'],
  kingdom: ['kingdom', 'homekingdom'],
  power: ['power'],
  killpoints: ['killpoints', 'totalkillpts', 'kp', 'killpts'],
  deads: ['deads', 'deaths', 'dead'],
  t1Kills: ['t1kills', 't1', 'tier1kills'],
  t2Kills: ['t2kills', 't2', 'tier2kills'],
  t3Kills: ['t3kills', 't3', 'tier3kills'],
  t4Kills: ['t4kills', 't4', 'tier4kills'],
  t5Kills: ['t5kills', 't5', 'tier5kills'],
  totalKills: ['totalkills', 'kills'],
  t45Kills: ['t45kills', 'killst4', 't4t5kills'],
  ranged: ['ranged', 'rangedpoints'],
  rssGathered: ['rssgathered', 'resourcesgathered'],
  rssAssistance: ['rssassistance', 'resourceassistance', 'resourcesgiven'],
  helps: ['helps', 'helpsgiven'],
  acclaim: ['acclaim'],
  highestAcclaim: ['highestacclaim'],
};

/** Columns of RokTracker's quick ("seed") mode: a file with nothing more is a seed scan. */
export const SEED_COLUMNS: readonly Column[] = ['governorId', 'name', 'power', 'killpoints', 'alliance', 'kingdom'];

/** Scanner sentinels (RokTracker): -1 unknown, -2 skipped, -3 not a number. */
export const SENTINEL_TEXTS = { unknown: 'unknown', skipped: 'skipped', notANumber: 'not a number' } as const;
export const SENTINELS: Record<number, string> = { [-1]: SENTINEL_TEXTS.unknown, [-2]: SENTINEL_TEXTS.skipped, [-3]: SENTINEL_TEXTS.notANumber };

/** Texts of a row that cannot be used, and of a warning; `{meaning}` is one of SENTINELS. */
export const SCAN_ROW_TEMPLATES = {
  badGovernorId: 'The governor id must be a whole number from 1.',
  duplicate: 'The same governor id is already on row {firstRow}.',
  sentinel: '{column}: the scanner wrote {value} ({meaning}), kept as not scanned.',
  notNumber: '{column}: not a whole number, kept as not scanned.',
  killpointsMismatch: 'Kill points {found} do not match the kills by tier ({expected}): a likely misread.',
  wentDown: '{column} went down from {before} to {now} since the previous scan: a likely misread.',
} as const;

const count = (n: number) => n.toLocaleString('en');
export const SCAN_ROW_TEXTS = {
  badGovernorId: SCAN_ROW_TEMPLATES.badGovernorId,
  duplicate: (firstRow: number) => fill(SCAN_ROW_TEMPLATES.duplicate, { firstRow }),
  sentinel: (column: string, value: number) => fill(SCAN_ROW_TEMPLATES.sentinel, { column, value, meaning: SENTINELS[value] }),
  notNumber: (column: string) => fill(SCAN_ROW_TEMPLATES.notNumber, { column }),
  killpointsMismatch: (expected: number, found: number) => fill(SCAN_ROW_TEMPLATES.killpointsMismatch, { found: count(found), expected: count(expected) }),
  wentDown: (column: string, before: number, now: number) => fill(SCAN_ROW_TEMPLATES.wentDown, { column, before: count(before), now: count(now) }),
} as const;

/** How the game counts kill points from kills by tier: a scan whose kill points differ was likely misread. */
export function killpointsFromTiers(t: { t1Kills: number; t2Kills: number; t3Kills: number; t4Kills: number; t5Kills: number }): number {
  return Math.floor(t.t1Kills * 0.2) + t.t2Kills * 2 + t.t3Kills * 4 + t.t4Kills * 10 + t.t5Kills * 20;
}
