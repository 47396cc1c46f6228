/**
 * Pure helpers of the statistics pages: large numbers made readable in the reader's locale (1.2B,
 * with the exact value kept for hover), and series shaped for uPlot.
 */

/** Below this a number is shown whole (with the locale's separators); from it, compact (1.2B). */
export const COMPACT_FROM = 100_000;

const formats = new Map<string, Intl.NumberFormat>();
function format(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

/** The exact value with the locale's separators: 1,234,567 (en), 1.234.567 (it), ١٬٢٣٤٬٥٦٧ (ar). */
export function exactNumber(value: number, locale: string, signed = false): string {
  return format(locale, { maximumFractionDigits: 0, signDisplay: signed ? 'exceptZero' : 'auto' }).format(value);
}

/** A readable number: whole below 100,000, otherwise compact with at most one decimal (1.2B, 45.3M). */
export function compactNumber(value: number, locale: string, signed = false): string {
  if (Math.abs(value) < COMPACT_FROM) return exactNumber(value, locale, signed);
  return format(locale, { notation: 'compact', compactDisplay: 'short', maximumFractionDigits: 1, signDisplay: signed ? 'exceptZero' : 'auto' }).format(value);
}

/**
 * The labels of a chart axis's ticks: compact like compactNumber while they stay apart, with more
 * decimals when the ticks lie close together (2.81B, 2.82B rather than 2.8B five times), and exact
 * when even three decimals would repeat one.
 */
export function axisNumbers(values: readonly number[], locale: string): string[] {
  for (const digits of [1, 2, 3]) {
    const labels = values.map((v) => (Math.abs(v) < COMPACT_FROM ? exactNumber(v, locale) : format(locale, { notation: 'compact', compactDisplay: 'short', maximumFractionDigits: digits }).format(v)));
    if (new Set(labels).size === labels.length) return labels;
  }
  return values.map((v) => exactNumber(v, locale));
}

/** uPlot's data: x in seconds (uPlot's time scale), one array per stat with null where a scan did not hold it. */
export function seriesData(points: readonly { takenAt: number; values: Record<string, number | null> }[], stats: readonly string[]): [number[], ...(number | null)[][]] {
  const sorted = [...points].sort((a, b) => a.takenAt - b.takenAt);
  const xs = sorted.map((p) => p.takenAt / 1000);
  const ys = stats.map((s) => sorted.map((p) => p.values[s] ?? null));
  return [xs, ...ys];
}

/** A series' points as the metrics answer gives them (one per scan). */
export interface ScanPoint {
  scanId: number;
  takenAt: number;
  members: number | null;
  values: Record<string, number | null>;
}

/**
 * Several series on one time axis (seconds): every scan any of them has, oldest first (by time,
 * then scan id); where a series has no point for a scan (a governor not in it), null.
 * `values[stat][series]` and `members[series]` are aligned with `xs`.
 */
export function alignSeries(list: readonly (readonly ScanPoint[])[], stats: readonly string[]): { xs: number[]; values: (number | null)[][][]; members: (number | null)[][] } {
  const scans = new Map<number, number>();
  for (const points of list) for (const p of points) scans.set(p.scanId, p.takenAt);
  const order = [...scans].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const index = new Map(order.map(([scanId], i) => [scanId, i]));
  const empty = () => order.map((): number | null => null);
  const values = stats.map(() => list.map(empty));
  const members = list.map(empty);
  list.forEach((points, k) => {
    for (const p of points) {
      const i = index.get(p.scanId)!;
      members[k][i] = p.members;
      stats.forEach((s, j) => (values[j][k][i] = p.values[s] ?? null));
    }
  });
  return { xs: order.map(([, takenAt]) => takenAt / 1000), values, members };
}

/** Change between the last two known values of a stat (null when there are fewer than two). */
export function lastChange(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length < 2 ? null : known[known.length - 1] - known[known.length - 2];
}

export const TIERS = ['t1Kills', 't2Kills', 't3Kills', 't4Kills', 't5Kills'] as const;

/** Kills by tier with each tier's share of the total (0..1); tiers not scanned are left out. */
export function killsByTier(entry: Partial<Record<(typeof TIERS)[number], number | null>>): { tier: (typeof TIERS)[number]; kills: number; share: number }[] {
  const known = TIERS.flatMap((tier) => (entry[tier] === null || entry[tier] === undefined ? [] : [{ tier, kills: entry[tier] }]));
  const total = known.reduce((s, k) => s + k.kills, 0);
  return known.map((k) => ({ ...k, share: total === 0 ? 0 : k.kills / total }));
}
