import { describe, expect, it } from 'vitest';
import { playerIdsKeys, scansKeys, statsKeys } from '../../src/api/scans';

const under = (key: readonly unknown[], scope: readonly unknown[]) => scope.every((part, i) => key[i] === part);

describe('scans query keys', () => {
  it('a scan import or change refreshes every list and number scans feed (scansKeys.all, statsKeys.all)', () => {
    expect(under(scansKeys.list(2), scansKeys.all)).toBe(true);
    expect(under(scansKeys.compare('t', 5), scansKeys.all)).toBe(true);
    for (const key of [
      statsKeys.summary(3, 2),
      statsKeys.governors({ q: 'a' }, 1, 8),
      statsKeys.governorPages({ alliance: 'X' }, 100),
      statsKeys.governor(7),
      statsKeys.ownGovernors,
      statsKeys.alliances(3),
      statsKeys.alliances(),
      statsKeys.series('kingdom', undefined, ['power']),
    ])
      expect(under(key, statsKeys.all)).toBe(true);
  });

  it('naming an alliance refreshes every scan\'s alliances; a link change every player ids page', () => {
    expect(under(statsKeys.alliances(3), statsKeys.alliancesAll)).toBe(true);
    expect(under(statsKeys.alliances(), statsKeys.alliancesAll)).toBe(true);
    expect(under(playerIdsKeys.page('bob', 2), playerIdsKeys.all)).toBe(true);
  });

  it('a page of governors and the table\'s scrolled pages never share a key (their data differ)', () => {
    expect(statsKeys.governorPages({}, 100)).not.toEqual(statsKeys.governors({}, 1, 100));
    expect(statsKeys.governors({ q: 'a' }, 1, 8)).not.toEqual(statsKeys.governors({ q: 'b' }, 1, 8));
  });
});
