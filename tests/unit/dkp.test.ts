import { describe, expect, it } from 'vitest';
import { dkp } from '../../server/kvk/dkp';

describe('DKP', () => {
  it('weighs T4 kills, T5 kills and deads by the season, as the common T4×4 + T5×10 + deads×15', () => {
    expect(dkp({ t4Kills: 4, t5Kills: 10, deads: 15 }, { t4Kills: 1_000, t5Kills: 200, deads: 30 })).toBe(4_000 + 2_000 + 450);
  });
  it('rounds fractional weights to whole points', () => {
    expect(dkp({ t4Kills: 0.5, t5Kills: 1, deads: 0 }, { t4Kills: 3, t5Kills: 0, deads: 9 })).toBe(2);
  });
});
