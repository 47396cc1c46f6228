import type { Queryable } from '../db/write';

/** A paid automatic-points run that a scan's new date would make overlap another run of its rule. */
export interface RunOverlap {
  runId: number;
  ruleId: number;
  ruleName: string;
}

type Span = { from: number; to: number };
const overlap = (a: Span, b: Span) => a.from < b.to && b.from < a.to;

/**
 * The paid runs that would overlap if scan `scanId` were taken at `takenAt` instead.
 *
 * A run records the times of its two scans when it paid (`from_taken_at`, `to_taken_at`), and later
 * previews and the rules that run by themselves skip any time a run already paid. A run that names
 * this scan spans, after the correction, the time between its other scan and the new date; it
 * overlaps when that span is empty or backwards (its scans swapped places) or shares time with
 * another run of the same rule (that one too at the new date when it names the scan), and it did
 * not before the correction (an overlap a person already accepted is not told again). Moving a
 * scan between its neighbours keeps its runs end to end and says nothing. Bounded: only the rules
 * with a run over this scan, one run per pair of scans each.
 */
export async function runsOverlappingIfMoved(db: Queryable, scanId: number, takenAt: number): Promise<RunOverlap[]> {
  const mine = await db
    .selectFrom('points_runs')
    .select(['rule_id'])
    .where((eb) => eb.or([eb('from_scan_id', '=', scanId), eb('to_scan_id', '=', scanId)]))
    .execute();
  if (mine.length === 0) return [];
  const runs = await db
    .selectFrom('points_runs as r')
    .innerJoin('points_rules as p', 'p.id', 'r.rule_id')
    .select(['r.id', 'r.rule_id', 'p.name', 'r.from_scan_id', 'r.to_scan_id', 'r.from_taken_at', 'r.to_taken_at'])
    .where('r.rule_id', 'in', [...new Set(mine.map((r) => r.rule_id))])
    .orderBy('r.id')
    .execute();
  const found: RunOverlap[] = [];
  for (const run of runs) {
    if (run.from_scan_id !== scanId && run.to_scan_id !== scanId) continue;
    if (run.from_taken_at === null || run.to_taken_at === null) continue;
    const was: Span = { from: run.from_taken_at, to: run.to_taken_at };
    const now: Span = { from: run.from_scan_id === scanId ? takenAt : was.from, to: run.to_scan_id === scanId ? takenAt : was.to };
    // the other runs of the rule, between their scans' times before and after the correction (a run whose scans swapped covers the time between them)
    const others = runs.filter((o) => o.id !== run.id && o.rule_id === run.rule_id && o.from_taken_at !== null && o.to_taken_at !== null);
    const spanOf = (o: (typeof others)[number], moved: boolean): Span => {
      const from = moved && o.from_scan_id === scanId ? takenAt : (o.from_taken_at as number);
      const to = moved && o.to_scan_id === scanId ? takenAt : (o.to_taken_at as number);
      return { from: Math.min(from, to), to: Math.max(from, to) };
    };
    const before = was.from >= was.to || others.some((o) => overlap(was, spanOf(o, false)));
    const after = now.from >= now.to || others.some((o) => overlap(now, spanOf(o, true)));
    if (after && !before) found.push({ runId: run.id, ruleId: run.rule_id, ruleName: run.name });
  }
  return found;
}
