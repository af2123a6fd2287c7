/**
 * `FOR SYSTEM_TIME AS OF`: an event-time temporal join against a versioned table, or a lookup
 * join against a lookup source on processing time — with Flink's checks and messages
 * (TemporalJoinTest.testInvalidTemporalTablJoin, StreamExecTemporalJoin, CommonPhysicalLookupJoin).
 */
import type { Expr } from '../sql/ast.js';
import { conjunctsFromAst, equiKeyOf, type Conjunct, type EquiKey } from './conditions.js';
import { fail } from './errors.js';
import { toTExpr } from './expr.js';
import { buildInputPlan, withPlan, type InputPlanDraft } from './input-plan.js';
import { inputUniqueKey, type InputSource } from './input.js';
import { checkStreamInput, joinedScope, pushFilter, type JoinCtx, type JoinDraft } from './join-common.js';
import { qualifiedName, supportsWatermarkPushDown } from './connector.js';
import { outputScope } from './output.js';
import type { LookupCacheConfig, TExpr, TimeAttrKind } from './plan.js';
import type { Scope } from './scope.js';
import { andAll } from './texpr-util.js';
import { fmtMs } from './sql-text.js';
import { calciteTypeName, flinkTypeName } from './type-names.js';

const LEFT_ATTR_MESSAGE = "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field";

/** What the AS OF expression is: a left time attribute (its index) or PROCTIME(). */
function periodOf(asOf: Expr, scope: Scope, leftWidth: number): { kind: TimeAttrKind; index?: number } {
  if (asOf.kind === 'typedLiteral') {
    fail(`Querying a temporal table using 'FOR SYSTEM TIME AS OF' syntax with a constant timestamp '${asOf.text}' is not supported yet.`, asOf,
      'AS OF takes the left table\'s time attribute, e.g. FOR SYSTEM_TIME AS OF o.order_time');
  }
  const e = toTExpr(asOf, scope);
  if (e.k === 'call' && e.fn === 'PROCTIME') return { kind: 'proctime' };
  if (e.type.kind !== 'TIMESTAMP' && e.type.kind !== 'TIMESTAMP_LTZ') {
    fail(`The system time period specification expects Timestamp type but is '${calciteTypeName(e.type).replace(/\(.*\)$/, '')}'`, asOf,
      'AS OF takes the left table\'s time attribute, e.g. FOR SYSTEM_TIME AS OF o.order_time');
  }
  const attr = e.k === 'col' && e.index < leftWidth ? scope.rels[0]?.columns[e.index]?.timeAttr : undefined;
  if (e.k !== 'col' || !attr) {
    const hint = e.k === 'col'
      ? 'this column is not a time attribute: declare WATERMARK FOR it (event time), or use a PROCTIME() column (lookup join)'
      : 'write the left time attribute itself, without arithmetic or functions';
    fail(LEFT_ATTR_MESSAGE, asOf, hint);
  }
  return { kind: attr, index: e.index };
}

function checkJoinType(ctx: JoinCtx): void {
  if (ctx.joinType !== 'inner' && ctx.joinType !== 'left') {
    fail(`Temporal table join currently only support INNER JOIN and LEFT JOIN, but was ${ctx.joinType.toUpperCase()} JOIN.`, ctx.keywordSpan,
      'a temporal or lookup join keeps the left (probe) rows; swap the tables and use LEFT JOIN');
  }
}

export function planTemporalJoin(ctx: JoinCtx, asOf: Expr): JoinDraft {
  const leftWidth = ctx.left.columns.length;
  const scope = joinedScope(ctx.left, ctx.right);
  const period = periodOf(asOf, scope, leftWidth);
  if (period.kind === 'proctime') {
    if (ctx.right.def.nature !== 'lookup') {
      // TemporalJoinRewriteWithUniqueKeyRule (a logical rule, for processing and event time alike)
      // checks the versioned table's key long before StreamExecTemporalJoin gives up on processing time.
      if (ctx.joinType === 'inner' || ctx.joinType === 'left') {
        const s = split(ctx, scope, leftWidth);
        checkVersionedKey(ctx, s.keys.filter((k) => k !== undefined));
      }
      fail('Processing-time temporal join is not supported yet.', asOf,
        `${ctx.right.refName} (connector ${ctx.right.def.connector}) is not a lookup source: a processing-time AS OF needs a lookup source (connector jdbc or hbase), which Flink plans as a lookup join. To join the versions of a changelog, use the left table's event-time attribute (AS OF ${ctx.left.alias}.<rowtime>) on a versioned table`);
    }
    if (ctx.joinType !== 'inner' && ctx.joinType !== 'left') {
      // Flink 2.0-2.3 plan a RIGHT or FULL lookup join up to the physical lookup join, which knows
      // only inner and left and throws an IllegalStateException with this text (real Flink's answer)
      fail(`Unknown join type ${ctx.joinType.toUpperCase()}`, ctx.keywordSpan,
        'a lookup join keeps the left (probe) rows and looks each one up: only INNER and LEFT JOIN; swap the tables and use LEFT JOIN');
    }
    checkStreamInput(ctx.left);
    return planLookup(ctx, scope, leftWidth, period.index);
  }
  checkJoinType(ctx);
  checkStreamInput(ctx.left);
  return planEventTime(ctx, scope, leftWidth, period.index as number, asOf);
}

interface Split {
  left: InputSource;
  keys: ReturnType<typeof equiKeyOf>[];
  cond: Conjunct[];
  post: Conjunct[];
}

/** ON: left-only predicates of an INNER join go below the join; WHERE: left-only below, the rest after. */
function split(ctx: JoinCtx, scope: Scope, leftWidth: number): Split {
  const on = conjunctsFromAst(ctx.on, scope, leftWidth, 'ON');
  const where = conjunctsFromAst(ctx.select.where, scope, leftWidth, 'WHERE');
  let left = ctx.left;
  const cond: Conjunct[] = [];
  const post: Conjunct[] = [];
  const tryPush = (c: Conjunct): boolean => {
    if (c.sides.size !== 1 || !c.sides.has(0)) return false;
    const pushed = pushFilter(left, c.e, 0);
    if (pushed) left = pushed;
    return pushed !== undefined;
  };
  for (const c of on) if (!(ctx.joinType === 'inner' && tryPush(c))) cond.push(c);
  for (const c of where) if (!tryPush(c)) post.push(c);
  return { left, keys: cond.map((c) => equiKeyOf(c, leftWidth)), cond, post };
}

/**
 * TemporalJoinRewriteWithUniqueKeyRule.validateRightPrimaryKey: the versioned side needs a primary
 * (upsert) key at the join, all of it inside the equi-join keys. The planner reads that key off the
 * join's right input, which is the hash exchange on the join key: an upsert key that does not
 * contain the exchange's keys does not survive it (rows of one key could be reordered across
 * channels). So a primary key the condition does not cover is reported as no primary key at all
 * (checked on Flink 2.0-2.3); the rule's other message, naming the key and the condition, is not
 * reached for a table's declared key. Returns that key.
 */
function checkVersionedKey(ctx: JoinCtx, equi: readonly EquiKey[]): readonly number[] {
  const right = ctx.right;
  const pk = inputUniqueKey(right);
  const noKey = 'Temporal Table Join requires primary key in versioned table, but no primary key can be found.';
  if (!pk) {
    fail(noKey, right.span,
      `${right.refName} is not a versioned table: declare PRIMARY KEY (...) NOT ENFORCED on ${right.def.name}, or read it through a deduplicating view (ROW_NUMBER() OVER (PARTITION BY key ORDER BY rowtime DESC) = 1)`);
  }
  const keyRight = equi.map((k) => k.right);
  if (!pk.every((c) => keyRight.includes(c))) {
    const joined = keyRight.map((c) => right.columns[c]?.name).join(', ');
    fail(noKey, ctx.on ?? right.span,
      `${right.refName} has PRIMARY KEY (${pk.map((c) => right.columns[c]?.name).join(', ')}), but the join condition does not cover it: Flink shuffles ${right.refName} on the join key (${joined === '' ? 'none' : joined}), and a key the shuffle does not contain is lost there. Join on every primary key column with '=': ${pk.map((c) => `${right.alias}.${right.columns[c]?.name}`).join(', ')}`);
  }
  return pk;
}

function planEventTime(ctx: JoinCtx, scope: Scope, leftWidth: number, leftTime: number, asOf: Expr): JoinDraft {
  const s = split(ctx, scope, leftWidth);
  const right = ctx.right;
  const equi = s.keys.filter((k) => k !== undefined);
  const pk = checkVersionedKey(ctx, equi);
  const keyRight = equi.map((k) => k.right);
  const rightTime = right.columns.findIndex((c) => c.timeAttr === 'rowtime');
  if (rightTime < 0) {
    fail('Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found.', right.span,
      `declare WATERMARK FOR <time column> on ${right.def.name}: the versioned table needs event time to know which version was valid when`);
  }
  const lt = ctx.left.columns[leftTime];
  const rt = right.columns[rightTime];
  if (lt && rt && lt.type.kind !== rt.type.kind) {
    fail(`Event-Time Temporal Table Join requires same rowtime type in left table and versioned table, but the rowtime types are ${flinkTypeName(lt.type, 'rowtime')} and ${flinkTypeName(rt.type, 'rowtime')}.`,
      asOf, 'declare both event-time columns with the same type (both TIMESTAMP(3) or both TIMESTAMP_LTZ(3))');
  }
  // EventTimeTemporalJoinRewriteRule walks the versioned side down to its scan and throws on a
  // filtering Calc, but each of its patterns has the WatermarkAssigner between that Calc and the
  // scan. A Kafka scan has taken the watermark in by then (PushWatermarkIntoTableSourceScanRule,
  // LOGICAL_REWRITE), so no pattern matches and the filter is planned (input-plan.ts says how).
  const changelogRight = right.def.nature === 'upsert' || right.def.nature === 'changelog' || right.dedup !== undefined;
  const filteredScan = right.filter !== undefined && !right.dedup && !supportsWatermarkPushDown(right.def.connector);
  if (changelogRight && (right.filterAfterDedup || filteredScan)) {
    fail('Filter is not allowed for right changelog input of event time temporal join, it will corrupt the versioning of data.', right.span,
      `${right.refName} filters a changelog, which would drop versions; filter after the join (in WHERE) or in the left input instead`);
  }
  const left = buildInputPlan(s.left, 'stream', ctx.options.config);
  const ver = buildInputPlan(right, 'versioned', ctx.options.config, ctx.options.flinkVersion);
  const ttl = ctx.options.config.stateTtlMs;
  const inputs: [InputPlanDraft, InputPlanDraft] = [
    withPlan(left, { timeAttr: { index: leftTime, kind: 'rowtime' }, stateTtlMs: ttl, stateTtlSource: 'config' }),
    withPlan(ver, { timeAttr: { index: rightTime, kind: 'rowtime' }, stateTtlMs: ttl, stateTtlSource: 'config' }),
  ];
  const notes = [
    `event-time temporal join: FOR SYSTEM_TIME AS OF ${ctx.left.alias}.${lt?.name} (an event-time attribute) on ${right.refName}, a versioned table keyed by ${pk.map((c) => right.columns[c]?.name).join(', ')} with rowtime ${rt?.name}`,
    'each left row waits until the join\'s watermark (the minimum of both inputs) passes its time, then joins the version valid at that time',
  ];
  const residual = andAll(s.cond.filter((_, i) => s.keys[i] === undefined).map((c) => c.e));
  const postFilter = andAll(s.post.map((c) => c.e));
  return {
    family: 'temporal', joinType: ctx.joinType, inputs,
    keys: { left: equi.map((k) => k.left), right: keyRight, nullSafe: equi.map((k) => k.nullSafe) },
    ...(residual ? { residual } : {}), ...(postFilter ? { postFilter } : {}),
    notes, outScope: outputScope(scope, ctx.joinType), leftWidth,
  };
}

function planLookup(ctx: JoinCtx, scope: Scope, leftWidth: number, procIndex: number | undefined): JoinDraft {
  const s = split(ctx, scope, leftWidth);
  const right = ctx.right;
  const keys: { rightColumn: number; left: TExpr }[] = [];
  const residual: Conjunct[] = [];
  s.cond.forEach((c) => {
    const k = s.keys[s.cond.indexOf(c)];
    if (k && !k.nullSafe) keys.push({ rightColumn: k.right, left: { k: 'col', type: ctx.left.columns[k.left]?.type ?? c.e.type, index: k.left, name: ctx.left.columns[k.left]?.name ?? '' } });
    else if (!(c.e.k === 'call' && c.e.fn === '=' && constantKey(c, leftWidth, keys))) residual.push(c);
  });
  if (keys.length === 0) {
    fail(`Temporal table join requires an equality condition on fields of table [${qualifiedName(right.def.name)}].`, ctx.on ?? right.span,
      `a lookup join looks rows up by key: add ON ${ctx.left.alias}.<col> = ${right.alias}.<key column>`);
  }
  const left = buildInputPlan(s.left, 'stream', ctx.options.config);
  const dim = buildInputPlan(right, 'lookup', ctx.options.config);
  const cache = right.def.lookupCache;
  const materialize = ctx.options.config.nonDeterministicUpdateStrategy === 'TRY_RESOLVE' && left.plan.changelogMode.some((k) => k !== '+I');
  // only the keyed wrapper keeps state (with table.exec.state.ttl, StreamExecLookupJoin)
  const ttl = materialize ? { stateTtlSource: 'config' as const, stateTtlMs: ctx.options.config.stateTtlMs } : { stateTtlSource: 'none' as const };
  const inputs: [InputPlanDraft, InputPlanDraft] = [
    withPlan(left, { ...ttl, ...(procIndex !== undefined ? { timeAttr: { index: procIndex, kind: 'proctime' as const } } : {}) }),
    withPlan(dim, { stateTtlSource: 'none' }),
  ];
  const notes = [
    `lookup join: FOR SYSTEM_TIME AS OF a processing-time attribute on ${right.refName}, a ${right.def.connector} lookup source; each left row queries the external table when it arrives${materialize ? '' : ', nothing is kept in join state'}`,
    cache ? `lookup cache: ${describeCache(cache)}` : 'no lookup cache (lookup.cache = NONE): every left row queries the table',
  ];
  const postFilter = andAll(s.post.map((c) => c.e));
  // Left-only ON conjuncts (only a LEFT join keeps them: INNER pushes them below) are the
  // runner's pre-filter, checked before any lookup.
  const pre = residual.filter((c) => c.sides.size === 1 && c.sides.has(0));
  const res = andAll(residual.filter((c) => !pre.includes(c)).map((c) => c.e));
  const preFilter = andAll(pre.map((c) => c.e));
  if (materialize) notes.push('table.optimizer.non-deterministic-update.strategy = TRY_RESOLVE and the left input updates: Flink keeps the rows fetched per left key (KeyedLookupJoinWrapper) and answers a -U/-D from them with -D rows instead of looking up again');
  const eqKeys = keys.filter((k) => k.left.k === 'col');
  const smallest = [...left.plan.upsertKeys].sort((a, b) => a.length - b.length)[0];
  const stateKey = smallest !== undefined && smallest.length > 0
    ? [...smallest].sort((a, b) => a - b)
    : left.plan.columns.map((_, i) => i);
  const pk = right.def.primaryKey;
  const keyed = materialize
    ? { materialize, stateKey, lookupKeyContainsPrimaryKey: pk !== undefined && pk.length > 0 && pk.every((c) => keys.some((k) => k.rightColumn === c)) }
    : {};
  return {
    family: 'lookup', joinType: ctx.joinType, inputs,
    keys: { left: eqKeys.map((k) => (k.left as { index: number }).index), right: eqKeys.map((k) => k.rightColumn), nullSafe: eqKeys.map(() => false) },
    lookup: { keys, ...(cache ? { cache } : {}), ...(preFilter ? { preFilter } : {}), ...keyed },
    ...(res ? { residual: res } : {}), ...(postFilter ? { postFilter } : {}),
    notes, outScope: outputScope(scope, ctx.joinType), leftWidth,
  };
}

/** `r.col = <constant>` is a lookup key with a constant value (Flink's LookupJoin constant keys). */
function constantKey(c: Conjunct, leftWidth: number, keys: { rightColumn: number; left: TExpr }[]): boolean {
  if (c.e.k !== 'call') return false;
  const [a, b] = c.e.args;
  const col = a?.k === 'col' && a.index >= leftWidth ? a : b?.k === 'col' && b.index >= leftWidth ? b : undefined;
  const lit = col === a ? b : a;
  if (!col || col.k !== 'col' || !lit || lit.k !== 'lit') return false;
  keys.push({ rightColumn: col.index - leftWidth, left: lit });
  return true;
}

export function describeCache(c: LookupCacheConfig): string {
  const parts: string[] = [];
  if (c.maxRows !== undefined) parts.push(`max ${c.maxRows} keys`);
  if (c.expireAfterWriteMs !== undefined) parts.push(`expire ${fmtMs(c.expireAfterWriteMs)} after write`);
  if (c.expireAfterAccessMs !== undefined) parts.push(`expire ${fmtMs(c.expireAfterAccessMs)} after access`);
  parts.push(c.cacheMissingKey ? 'misses cached' : 'misses not cached');
  return `PARTIAL (${c.source === 'legacy' ? 'legacy lookup.cache.* options' : 'lookup.partial-cache.*'}): ${parts.join(', ')}`;
}

