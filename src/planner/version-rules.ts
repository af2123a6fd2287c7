/**
 * The flink-version rules a plan runs under (notes §2.3, §5.2, §4.1, §10): one table, read by
 * `explain` (the rules in force, in words) and by `joinstep diff` (which rules differ between two
 * releases, to name the one behind a changed row).
 */
import type { FlinkVersion, Plan } from './plan.js';
import { fmtMs } from './sql-text.js';

export interface VersionRule {
  /** The Flink issue that changed the behaviour. */
  readonly id: string;
  /** A few words for a diff header: what the rule decides. */
  readonly title: string;
  /** The first release with the new behaviour. */
  readonly since: FlinkVersion;
  /** Whether the rule can change anything this plan does. */
  readonly applies: (plan: Plan) => boolean;
  /** The rule as it stands in release `v`, one sentence. */
  readonly text: (v: FlinkVersion) => string;
  /**
   * Listed by `explain`. The ChangelogNormalize and 2.4 counting rules only matter for particular
   * input rows, so `explain` leaves them out of its notes; `diff` still names them.
   */
  readonly explained: boolean;
}

const outer = (plan: Plan): boolean => plan.family === 'regular' && plan.joinType !== 'inner';
const normalized = (plan: Plan): boolean => plan.inputs.some((i) => i.changelogNormalize !== undefined);

export const VERSION_RULES: readonly VersionRule[] = [
  {
    id: 'FLINK-39719',
    title: 'late probe rows of the temporal join',
    since: '2.4',
    applies: (plan) => plan.family === 'temporal',
    text: (v) =>
      v >= '2.4'
        ? `Flink ${v}: a left row whose time is at or below the current watermark is dropped as late (FLINK-39719), even in a LEFT join`
        : `Flink ${v}: late left rows are kept and joined at the next watermark (the late-row drop arrived in 2.4, FLINK-39719)`,
    explained: true,
  },
  {
    id: 'FLINK-37955',
    title: 'output order of an outer join with several matches',
    since: '2.2',
    applies: outer,
    text: (v) =>
      v >= '2.2'
        ? `Flink ${v}: with several matches the outer join emits each un-pad / join pair in turn (FLINK-37955)`
        : `Flink ${v}: with several matches the outer join emits all -D of padded rows first, then all joined rows (before FLINK-37955)`,
    explained: true,
  },
  {
    id: 'FLINK-40841',
    title: 'match counts of a replaced row in an outer join',
    since: '2.4',
    applies: (plan) => outer(plan) && plan.inputs.some((i) => i.stateLayout?.kind === 'InputSideHasUniqueKey'),
    text: (v) =>
      v >= '2.4'
        ? `Flink ${v}: a row that replaces a stored row with the same unique key counts only the matches the old row did not have (FLINK-40841)`
        : `Flink ${v}: a row that replaces a stored row with the same unique key counts every match again (before FLINK-40841)`,
    explained: false,
  },
  {
    id: 'FLINK-37390',
    title: 'where a filter on an upsert source runs',
    since: '2.1',
    applies: (plan) => plan.inputs.some((i) => i.changelogNormalize !== undefined && i.filter !== undefined),
    text: (v) =>
      v >= '2.1'
        ? `Flink ${v}: the filter on an upsert source runs inside ChangelogNormalize, on the normalized rows (FLINK-37390)`
        : `Flink ${v}: the filter on an upsert source runs after ChangelogNormalize (before FLINK-37390)`,
    explained: false,
  },
  {
    id: 'FLINK-38217',
    title: 'whether a repeated +U row is dropped by ChangelogNormalize',
    since: '2.2',
    applies: normalized,
    text: (v) =>
      v >= '2.2'
        ? `Flink ${v}: ChangelogNormalize drops a +U whose values equal the stored row, whatever its row kind (FLINK-38217)`
        : `Flink ${v}: ChangelogNormalize compares the row kind too, so a CDC +U equal to the stored +I row goes through (before FLINK-38217; upsert-kafka values all arrive as +I)`,
    explained: false,
  },
  {
    id: 'FLINK-37475',
    title: 'whether an upsert source feeding a lookup join into an upsert sink is normalized',
    since: '2.1',
    applies: (plan) => plan.family === 'lookup' && !plan.inputs[0].changelogMode.includes('-U')
      && plan.tables.find((t) => t.name === plan.inputs[0].table)?.nature === 'upsert',
    text: (v) =>
      v >= '2.1'
        ? `Flink ${v}: when nothing downstream needs -U or full deletes, no ChangelogNormalize follows the upsert source: values reach the join as +I, tombstones as -D with only the key (FLINK-37475)`
        : `Flink ${v}: a ChangelogNormalize always follows an upsert source; when nothing downstream needs -U it sends +U alone (before FLINK-37475)`,
    explained: false,
  },
];

/** The rules whose behaviour differs between releases `a` and `b` for this plan. */
export function changedRules(plan: Plan, a: FlinkVersion, b: FlinkVersion): VersionRule[] {
  return VERSION_RULES.filter((r) => r.applies(plan) && (a >= r.since) !== (b >= r.since));
}

export function versionNotes(plan: Plan): string[] {
  const out = VERSION_RULES.filter((r) => r.explained && r.applies(plan)).map((r) => r.text(plan.flinkVersion));
  if (plan.family === 'interval' && plan.interval) {
    out.push(`table.exec.interval-join.min-cleanup-interval = ${fmtMs(plan.interval.minCleanupMs)}: a row's cleanup timer fires at its time + its side's window size + ${fmtMs(plan.interval.minCleanupMs)} + 1 ms (Flink 1.18+ default 0)`);
  }
  return out;
}
