/**
 * DKP: the one formula. A season's weights say how much DKP one T4 kill, one T5
 * kill and one dead are worth (kingdoms differ, so they are the season's, never code). The KvK
 * standings and automatic points rules that pay for a season's DKP both call this; the client only
 * shows what the server computed.
 */
export interface DkpWeights {
  t4Kills: number;
  t5Kills: number;
  deads: number;
}

/** The gains DKP is made of (between two scans; a stat not scanned counts as no gain). */
export interface DkpGains {
  t4Kills: number;
  t5Kills: number;
  deads: number;
}

/** DKP of some gains, rounded to a whole number (weights may be fractions, points are whole). */
export function dkp(weights: DkpWeights, gains: DkpGains): number {
  return Math.round(weights.t4Kills * gains.t4Kills + weights.t5Kills * gains.t5Kills + weights.deads * gains.deads);
}
