import { describe, expect, it } from 'vitest';
import { alignSeries, axisNumbers, compactNumber, exactNumber, killsByTier, lastChange, seriesData } from '../../src/ui/lib/stats-format';

describe('readable numbers', () => {
  it('large numbers are compact (1.2B), small ones whole with the locale separators', () => {
    expect(compactNumber(1_234_567_890, 'en')).toBe('1.2B');
    expect(compactNumber(45_300_000, 'en')).toBe('45.3M');
    expect(compactNumber(99_999, 'en')).toBe('99,999');
    expect(compactNumber(0, 'en')).toBe('0');
    expect(compactNumber(-2_500_000, 'en')).toBe('-2.5M');
  });
  it('the exact value keeps every digit with the locale grouping', () => {
    expect(exactNumber(1_234_567_890, 'en')).toBe('1,234,567,890');
    expect(exactNumber(1_234_567, 'it')).toBe('1.234.567');
    expect(exactNumber(1_234_567, 'ar')).toMatch(/^[\u0660-\u0669٬]+$|^[0-9,]+$/);
  });
  it('a change is signed, zero is not', () => {
    expect(compactNumber(1_500_000, 'en', true)).toBe('+1.5M');
    expect(exactNumber(-12, 'en', true)).toBe('-12');
    expect(exactNumber(0, 'en', true)).toBe('0');
  });
});

describe('series for uPlot', () => {
  it('x in seconds, oldest first, null where a scan did not hold the stat', () => {
    const data = seriesData(
      [
        { takenAt: 2_000_000, values: { power: 20, deads: null } },
        { takenAt: 1_000_000, values: { power: 10 } },
      ],
      ['power', 'deads'],
    );
    expect(data).toEqual([
      [1000, 2000],
      [10, 20],
      [null, null],
    ]);
  });
  it('last change skips scans that did not hold the stat', () => {
    expect(lastChange([10, null, 25, null])).toBe(15);
    expect(lastChange([null, 7])).toBeNull();
  });
  it('kills by tier with shares; tiers not scanned are left out', () => {
    expect(killsByTier({ t1Kills: 100, t2Kills: null, t3Kills: 0, t4Kills: 300, t5Kills: 600 })).toEqual([
      { tier: 't1Kills', kills: 100, share: 0.1 },
      { tier: 't3Kills', kills: 0, share: 0 },
      { tier: 't4Kills', kills: 300, share: 0.3 },
      { tier: 't5Kills', kills: 600, share: 0.6 },
    ]);
    expect(killsByTier({ t1Kills: 0, t2Kills: 0, t3Kills: 0, t4Kills: 0, t5Kills: 0 }).every((t) => t.share === 0)).toBe(true);
  });
});

describe('axisNumbers: tick labels that never repeat', () => {
  it('stays compact with one decimal when the ticks are far apart', () => {
    expect(axisNumbers([1_000_000_000, 2_000_000_000, 3_000_000_000], 'en')).toEqual(['1B', '2B', '3B']);
  });
  it('takes more decimals when ticks lie close together (a French "2,8 Md" five times before)', () => {
    const ticks = [2_805_000_000, 2_810_000_000, 2_815_000_000, 2_820_000_000, 2_825_000_000];
    expect(new Set(ticks.map((t) => compactNumber(t, 'fr'))).size).toBe(1);
    const labels = axisNumbers(ticks, 'fr');
    expect(new Set(labels).size).toBe(5);
    expect(labels[1]).toBe(compactNumber(2_810_000_000, 'fr').replace('2,8', '2,81'));
  });
  it('falls back to exact numbers when even three decimals repeat', () => {
    expect(axisNumbers([2_800_000_100, 2_800_000_200], 'en')).toEqual(['2,800,000,100', '2,800,000,200']);
  });
  it('writes small ticks exactly', () => {
    expect(axisNumbers([0, 50_000, 100_000], 'en')).toEqual(['0', '50,000', '100K']);
  });
});

describe('alignSeries: several governors or alliances on one chart', () => {
  it('puts every scan any series has on one axis, oldest first, with null where a series was not scanned', () => {
    const a = [
      { scanId: 1, takenAt: 1_000_000, members: 10, values: { power: 100 } },
      { scanId: 3, takenAt: 3_000_000, members: 12, values: { power: 300 } },
    ];
    // scan 2 is older than scan 3 though listed after it; b was not in scan 1
    const b = [
      { scanId: 3, takenAt: 3_000_000, members: 5, values: { power: 30 } },
      { scanId: 2, takenAt: 2_000_000, members: 4, values: { power: null } },
    ];
    const aligned = alignSeries([a, b], ['power']);
    expect(aligned.xs).toEqual([1000, 2000, 3000]);
    expect(aligned.values).toEqual([
      [
        [100, null, 300],
        [null, null, 30],
      ],
    ]);
    expect(aligned.members).toEqual([
      [10, null, 12],
      [null, 4, 5],
    ]);
  });

  it('orders scans taken at the same time by id, and gives an empty axis for no series', () => {
    const aligned = alignSeries([[{ scanId: 9, takenAt: 5000, members: null, values: {} }, { scanId: 4, takenAt: 5000, members: null, values: {} }]], ['deads']);
    expect(aligned.xs).toEqual([5, 5]);
    expect(aligned.values).toEqual([[[null, null]]]);
    expect(alignSeries([], ['power'])).toEqual({ xs: [], values: [[]], members: [] });
  });
});
