/**
 * `joinstep explain`: the plan in words a person reads in ten seconds — the operator family and
 * why, the join type and keys, each input's time attribute, watermark, changelog mode and state
 * with its cleanup rule, the output changelog, and the flink-version rules in force (spec §7).
 */
import { describeCache } from './join-temporal.js';
import type { InputPlan, Plan, StateLayout, TableDef } from './plan.js';
import { exprText, fmtMs } from './sql-text.js';
import { flinkTypeName } from './type-names.js';

const FAMILY_TITLE: Record<Plan['family'], string> = {
  regular: 'regular join',
  semi: 'semi join',
  anti: 'anti join',
  interval: 'interval join',
  temporal: 'event-time temporal join',
  lookup: 'lookup join',
};

const NATURE: Record<TableDef['nature'], string> = {
  append: 'append-only source',
  upsert: 'upsert source',
  changelog: 'CDC changelog source',
  lookup: 'lookup source',
};

function modeText(mode: readonly string[]): string {
  if (mode.length === 0) return 'none (not a stream: looked up on demand)';
  const kind = mode.every((k) => k === '+I') ? 'append-only' : mode.includes('-U') ? 'retract changelog' : 'upsert changelog';
  return `[${mode.join(', ')}] (${kind})`;
}

function layoutText(l: StateLayout, p: InputPlan): string {
  const names = (k: readonly number[]): string => k.map((i) => p.columns[i]?.name ?? `#${i}`).join(', ');
  switch (l.kind) {
    case 'JoinKeyContainsUniqueKey':
      return `JoinKeyContainsUniqueKey: one row per join key (unique key ${names(l.uniqueKey)} is part of the join key); a new row replaces it`;
    case 'InputSideHasUniqueKey':
      return `InputSideHasUniqueKey: per join key, rows by unique key ${names(l.uniqueKey)}`;
    case 'InputSideHasNoUniqueKey':
      return 'InputSideHasNoUniqueKey: per join key, every distinct row with a count (duplicates counted)';
  }
}

function ttlText(p: InputPlan): string {
  if (p.stateTtlMs <= 0) return 'kept forever (table.exec.state.ttl = 0)';
  const from = p.stateTtlSource === 'hint' ? 'STATE_TTL hint' : 'table.exec.state.ttl';
  return `an entry expires ${fmtMs(p.stateTtlMs)} after its last write (${from}, processing time, inclusive)`;
}

function stateText(plan: Plan, side: 0 | 1, p: InputPlan): string[] {
  switch (plan.family) {
    case 'regular':
    case 'semi':
    case 'anti':
      return [`state: ${p.stateLayout ? layoutText(p.stateLayout, p) : 'kept per join key'}`, `cleanup: ${ttlText(p)}`];
    case 'interval': {
      const iv = plan.interval;
      const size = iv ? (side === 0 ? -iv.lowerMs : iv.upperMs) : 0;
      const outer = side === 0 ? plan.joinType === 'left' || plan.joinType === 'full' : plan.joinType === 'right' || plan.joinType === 'full';
      return [
        'state: rows cached per join key by time',
        `cleanup: a row at time t is dropped once the ${iv?.timeKind === 'proctime' ? 'processing time' : 'watermark'} passes t + ${fmtMs(size)}${outer ? ' (if it never matched, it is emitted padded with nulls then)' : ''}`,
      ];
    }
    case 'temporal': {
      const retention = p.stateTtlMs > 1 ? `; idle keys cleared after ${fmtMs(p.stateTtlMs)} to ${fmtMs(Math.floor((p.stateTtlMs * 3) / 2))} of processing time (table.exec.state.ttl)` : '';
      return side === 0
        ? [`state: left rows wait per key until the join's watermark passes their time, then are emitted and removed${retention}`]
        : [`state: versions per key by rowtime; versions older than the latest one at or below the watermark are removed${retention}`];
    }
    case 'lookup':
      return side === 0
        ? plan.lookup?.materialize === true
          ? ['state: the fetched rows per input key (KeyedLookupJoinWrapper), to answer a -U/-D with -D rows', `cleanup: ${ttlText(p)}`]
          : ['state: none (each row is joined when it arrives)']
        : [`state: none in the join; ${plan.lookup?.cache ? `cache ${describeCache(plan.lookup.cache)}` : 'no cache: every lookup reads the table'}`];
  }
}

function inputLines(plan: Plan, side: 0 | 1): string[] {
  const p = plan.inputs[side];
  const def = plan.tables.find((t) => t.name === p.table);
  const title = `${side === 0 ? 'left ' : 'right'} ${p.alias}${p.alias === p.table ? '' : ` = ${p.table}`}`;
  const out = [`  ${title}: ${def ? `${def.connector}, ${NATURE[def.nature]}` : p.table}${def?.primaryKey ? `, primary key (${def.primaryKey.map((i) => def.columns[i]?.name).join(', ')})` : ''}`];
  def?.columns.forEach((c, i) => {
    if (!c.timeAttr) return;
    const wm = def.watermark && def.watermark.column === i ? `, watermark ${def.watermark.text}` : '';
    out.push(`    time attribute: ${c.name} ${flinkTypeName(c.type, c.timeAttr)}${wm}`);
  });
  const steps: string[] = [];
  if (p.filter) steps.push(`filter ${exprText(p.filter, (i) => def?.columns[i]?.name ?? `$${i}`)}`);
  if (p.changelogNormalize) steps.push('ChangelogNormalize');
  if (p.deduplicate) steps.push(`Deduplicate (keep ${p.deduplicate.keepLast ? 'last' : 'first'} row)`);
  if (p.dropUpdateBefore) steps.push('DropUpdateBefore');
  if (steps.length > 0) out.push(`    before the join: ${steps.join(' → ')}`);
  out.push(`    changelog: ${modeText(p.changelogMode)}`);
  if (p.upsertKeys.length > 0) out.push(`    upsert key: ${p.upsertKeys.map((k) => `(${k.map((i) => p.columns[i]?.name).join(', ')})`).join(', ')}`);
  for (const s of stateText(plan, side, p)) out.push(`    ${s}`);
  return out;
}

function joinedName(plan: Plan): (i: number) => string {
  const [l, r] = plan.inputs;
  return (i) => (i < l.columns.length ? `${l.alias}.${l.columns[i]?.name}` : `${r.alias}.${r.columns[i - l.columns.length]?.name}`);
}

function conditionLines(plan: Plan): string[] {
  const [l, r] = plan.inputs;
  const name = joinedName(plan);
  const out: string[] = [];
  const keys = plan.keys.left.map((li, k) => `${l.alias}.${l.columns[li]?.name} ${plan.keys.nullSafe[k] ? 'IS NOT DISTINCT FROM' : '='} ${r.alias}.${r.columns[plan.keys.right[k] as number]?.name}`);
  out.push(`join key: ${keys.length > 0 ? keys.join(' AND ') : 'none (every row shares one key)'}`);
  if (plan.lookup) {
    out.push(`lookup key: ${plan.lookup.keys.map((k) => `${r.alias}.${r.columns[k.rightColumn]?.name} = ${exprText(k.left, name)}`).join(', ')}`);
  }
  if (plan.interval) {
    const iv = plan.interval;
    const lt = l.timeAttr ? l.columns[l.timeAttr.index]?.name : '?';
    const rt = r.timeAttr ? r.columns[r.timeAttr.index]?.name : '?';
    out.push(`bounds: ${l.alias}.${lt} BETWEEN ${r.alias}.${rt} ${sign(iv.lowerMs)} AND ${r.alias}.${rt} ${sign(iv.upperMs)} (inclusive, ${iv.timeKind === 'rowtime' ? 'event time' : 'processing time'})${iv.negativeWindow ? ' — empty window' : ''}`);
  }
  if (plan.residual) out.push(`other condition: ${exprText(plan.residual, name)}`);
  if (plan.postFilter) out.push(`filter after the join: ${exprText(plan.postFilter, name)}`);
  return out;
}

function sign(ms: number): string {
  return ms < 0 ? `- ${fmtMs(-ms)}` : `+ ${fmtMs(ms)}`;
}

export function formatExplain(plan: Plan, scenarioName: string): string {
  return `${explainLines(plan, scenarioName).join('\n')}\n`;
}

/**
 * The plan's lines, one entry per printed line. A name may hold a line break (a backtick-quoted
 * column, the scenario's name): a caller that shows the lines on a terminal escapes each entry.
 */
export function explainLines(plan: Plan, scenarioName: string): string[] {
  const lines: string[] = [];
  lines.push(`${scenarioName}`);
  lines.push(`operator: ${FAMILY_TITLE[plan.family]} (family: ${plan.family}), join type: ${plan.joinType} — Flink ${plan.flinkVersion}`);
  if (plan.notes[0]) lines.push(`why: ${plan.notes[0]}`);
  lines.push(...conditionLines(plan));
  lines.push('inputs:');
  lines.push(...inputLines(plan, 0), ...inputLines(plan, 1));
  lines.push('output:');
  lines.push(`  columns: ${plan.output.names.map((n, i) => `${n} ${flinkTypeName(plan.output.types[i] ?? { kind: 'NULL', nullable: true })}`).join(', ')}`);
  lines.push(`  changelog: ${modeText(plan.output.changelogMode)}${plan.output.upsertKeys.length > 0 ? `, upsert key (${plan.output.upsertKeys[0]?.map((i) => plan.output.names[i]).join(', ')})` : ''}`);
  if (plan.sink) {
    const s = plan.sink;
    lines.push(`  sink: ${s.table}${s.primaryKey ? ` (upsert sink, primary key ${s.primaryKey.map((i) => s.columns[i]?.name).join(', ')})` : ''}${s.upsertMaterialize ? ', through a SinkUpsertMaterializer' : ''}${s.onConflict ? `, ON CONFLICT DO ${s.onConflict}` : ''}`);
  }
  if (plan.notes.length > 1) {
    lines.push('notes:');
    for (const n of plan.notes.slice(1)) lines.push(`  - ${n}`);
  }
  return lines;
}
