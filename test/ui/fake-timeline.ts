/**
 * A hand-built Timeline for UI tests: every step's records are given as data, so a test knows
 * exactly what each pane must show. `insert` adds a step that changes nothing (a manual action).
 */
import type { Emitted, StateView, StepRecord, Timeline, TraceEvent, WatermarkView, Why } from '../../src/engine/types.js';
import { WM_MIN } from '../../src/engine/types.js';
import type { ScenarioEvent } from '../../src/scenario/types.js';
import type { Session, SessionInfo } from '../../src/ui/session.js';
import type { RowKind, SqlType, Value } from '../../src/values/types.js';
import { stateViewOf } from '../../src/engine/describe.js';

export interface FakeStep {
  readonly event: ScenarioEvent;
  readonly emitted?: readonly { kind: RowKind; row: readonly Value[]; why: Why }[];
  readonly trace?: readonly TraceEvent[];
  readonly flags?: number;
  /** State after the step; absent = unchanged. */
  readonly state?: readonly [StateView, StateView];
  readonly watermarks?: WatermarkView;
  readonly result?: readonly string[];
}

const EMPTY_STATE: StateView = stateViewOf('empty', []);

export function fakeTimeline(steps: readonly FakeStep[], initialWm: WatermarkView): Timeline {
  const records: StepRecord[] = [{ index: 0, snapshot: null, emitted: [], trace: [], flags: 0 }];
  const changelog: Emitted[] = [];
  const sizes = [0];
  const states: (readonly [StateView, StateView])[] = [[EMPTY_STATE, EMPTY_STATE]];
  const wms: WatermarkView[] = [initialWm];
  const results: (readonly string[])[] = [[]];
  steps.forEach((st, k) => {
    const i = k + 1;
    const emitted = (st.emitted ?? []).map((e) => ({ ...e, step: i }));
    changelog.push(...emitted);
    sizes.push(changelog.length);
    records.push({ index: i, event: st.event, snapshot: null, emitted, trace: st.trace ?? [], flags: st.flags ?? 0 });
    states.push(st.state ?? states[k]!);
    wms.push(st.watermarks ?? wms[k]!);
    results.push(st.result ?? results[k]!);
  });
  const clamp = (i: number): number => Math.max(0, Math.min(i, steps.length));
  return {
    length: steps.length,
    events: steps.map((s) => s.event),
    at: (i) => records[clamp(i)]!,
    flagsAt: (i) => records[clamp(i)]!.flags,
    changelogSize: (i) => sizes[clamp(i)]!,
    changelogRange: (i, from, to) => changelog.slice(from, Math.min(to, sizes[clamp(i)]!)),
    result: (i) => results[clamp(i)]!,
    describeState: (i, side) => states[clamp(i)]![side],
    describeWatermarks: (i) => wms[clamp(i)]!,
    insert: (after, event) => {
      const copy = [...steps];
      const prev = after > 0 ? steps[after - 1] : undefined;
      copy.splice(after, 0, {
        event,
        trace: [{ t: 'note', text: 'manual' }],
        ...(prev?.state ? { state: prev.state } : {}),
        ...(prev?.watermarks ? { watermarks: prev.watermarks } : {}),
        ...(prev?.result ? { result: prev.result } : {}),
      });
      return fakeTimeline(copy, initialWm);
    },
    remove: (index) => fakeTimeline(steps.filter((_, k) => k + 1 !== index), initialWm),
  };
}

const STRING: SqlType = { kind: 'STRING', nullable: true };
const DEC: SqlType = { kind: 'DECIMAL', nullable: true, precision: 10, scale: 2 };
const TS: SqlType = { kind: 'TIMESTAMP', nullable: true, precision: 3 };
export const DATE = Date.UTC(2026, 9, 1);
export const T = (hhmm: string): number => DATE + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))) * 60_000;
const pos = (line: number) => ({ line, col: 3 });

export const INFO: SessionInfo = {
  file: 'scenarios/eur.yaml',
  name: 'EUR order at 09:30',
  description: 'Event-time temporal join',
  dateMs: DATE,
  timeZone: 'UTC',
  family: 'temporal',
  joinType: 'left',
  sides: ['orders AS o', 'rates AS r'],
  outputNames: ['order_id', 'order_time', 'amount_usd'],
  outputTypes: [STRING, TS, { kind: 'DECIMAL', nullable: true, precision: 21, scale: 6 }],
  tables: [
    { name: 'orders', rowtimeLtz: false, columns: [{ name: 'order_id', type: STRING, computed: false }, { name: 'currency', type: STRING, computed: false }, { name: 'amount', type: DEC, computed: false }, { name: 'order_time', type: TS, computed: false }] },
    { name: 'rates', rowtimeLtz: false, columns: [{ name: 'currency', type: STRING, computed: false }, { name: 'usd_rate', type: DEC, computed: false }, { name: 'update_time', type: TS, computed: false }] },
  ],
};

export function wmView(o: number, r0: number, r1: number, idle1 = false): WatermarkView {
  const join = Math.min(o, idle1 ? r0 : Math.min(r0, r1));
  const heldBy = join === r1 && !idle1 && r1 < o ? 'rates partition 1' : join === o ? 'orders partition 0' : 'rates partition 0';
  return {
    tables: [
      { table: 'orders', side: 0, combined: o, idle: false, partitions: [{ partition: 0, generated: o, emitted: o, idle: false }] },
      {
        table: 'rates',
        side: 1,
        combined: idle1 ? r0 : Math.min(r0, r1),
        idle: false,
        heldBy: idle1 || r0 <= r1 ? 0 : 1,
        partitions: [
          { partition: 0, generated: r0, emitted: r0, idle: false },
          { partition: 1, generated: r1, emitted: r1, idle: idle1 },
        ],
      },
    ],
    join,
    heldBy,
    output: join,
  };
}

const rate = (rate: string, time: string) => ({ key: 'EUR', row: `+I[EUR, ${rate}, 2026-10-01T${time}]`, tags: ['version'] as string[] });

/** A temporal join story: two rate versions, an order that waits for the watermark, a late order, the release. */
export function storySteps(): FakeStep[] {
  const v1 = rate('1.1000', '09:00');
  const v2 = rate('1.2000', '10:00');
  const orderRow = '+I[o1, EUR, 100.00, 2026-10-01T09:30]';
  return [
    {
      event: { kind: 'row', table: 'rates', partition: 0, op: '+I', row: ['EUR', '1.10', T('09:00')], pos: pos(30) },
      trace: [{ t: 'row.in', table: 'rates', partition: 0, kind: '+I', row: '+I[EUR, 1.1000, 2026-10-01T09:00]' }, { t: 'state.add', side: 1, key: 'EUR', row: v1.row }],
      state: [stateViewOf('buffered probe rows by time', []), stateViewOf('versions per key (rightState)', [v1])],
      watermarks: wmView(WM_MIN, T('09:00'), WM_MIN),
    },
    {
      event: { kind: 'row', table: 'rates', partition: 1, op: '+I', row: ['EUR', '1.20', T('10:00')], pos: pos(31) },
      trace: [{ t: 'state.add', side: 1, key: 'EUR', row: v2.row }],
      state: [stateViewOf('buffered probe rows by time', []), stateViewOf('versions per key (rightState)', [v1, v2])],
      watermarks: wmView(WM_MIN, T('09:00'), T('09:25')),
      flags: 8,
    },
    {
      event: { kind: 'row', table: 'orders', partition: 0, op: '+I', row: ['o1', 'EUR', '100.00', T('09:30')], pos: pos(32) },
      trace: [
        { t: 'row.in', table: 'orders', partition: 0, kind: '+I', row: orderRow },
        { t: 'state.add', side: 0, key: 'EUR', row: orderRow },
        { t: 'timer.register', domain: 'event', time: T('09:30'), key: 'EUR', purpose: 'release buffered probe rows' },
      ],
      state: [stateViewOf('buffered probe rows by time', [{ key: 'EUR', row: orderRow, tags: [] }]), stateViewOf('versions per key (rightState)', [v1, v2])],
      watermarks: wmView(T('09:30'), T('09:00'), T('09:25')),
      flags: 8,
    },
    { event: { kind: 'note', note: 'Nothing yet: the order waits.', pos: pos(33) } },
    {
      event: { kind: 'row', table: 'orders', partition: 0, op: '+I', row: ['o0', 'EUR', '5.00', T('08:00')], pos: pos(34) },
      trace: [{ t: 'drop.late', side: 0, row: '+I[o0, EUR, 5.00, 2026-10-01T08:00]', reason: 'its time 08:00 is at or below the join watermark 09:00' }],
      flags: 4,
    },
    {
      event: { kind: 'watermark', table: 'rates', to: T('10:00'), pos: pos(35), note: 'release' },
      emitted: [{ kind: '+I', row: ['o1', T('09:30'), '110.000000'], why: { rule: 'temporal.version', text: 'left +I[o1, EUR] matched rates version 09:00 (latest <= 09:30)', rows: ['orders +I[o1, EUR, 100.00, 09:30]', 'rates +I[EUR, 1.1000, 09:00]'] } }],
      trace: [{ t: 'watermark.advance', scope: 'join', from: T('09:00'), to: T('09:30') }, { t: 'timer.fire', domain: 'event', time: T('09:30'), key: 'EUR', purpose: 'release' }],
      state: [stateViewOf('buffered probe rows by time', []), stateViewOf('versions per key (rightState)', [{ ...v1, tags: ['version', 'in use'] }, v2])],
      watermarks: wmView(T('09:30'), T('10:00'), T('10:00')),
      result: ['[o1, 2026-10-01T09:30, 110.000000]'],
      flags: 1 | 8,
    },
    {
      event: { kind: 'row', table: 'rates', partition: 0, op: '-D', row: ['EUR', '1.10', T('09:00')], pos: pos(36) },
      emitted: [
        { kind: '-U', row: ['o1', T('09:30'), '110.000000'], why: { rule: 'retract-match', text: 'rates -D retracts the matched version' } },
        { kind: '+U', row: ['o1', T('09:30'), null], why: { rule: 'repad', text: 'no version left: padded with nulls' } },
      ],
      trace: [{ t: 'state.retract', side: 1, key: 'EUR', row: v1.row }],
      state: [stateViewOf('buffered probe rows by time', []), stateViewOf('versions per key (rightState)', [v2])],
      result: ['[o1, 2026-10-01T09:30, null]'],
      flags: 1 | 2,
    },
  ];
}

export function storySession(steps: readonly FakeStep[] = storySteps()): Session {
  return { info: INFO, timeline: fakeTimeline(steps, wmView(WM_MIN, WM_MIN, WM_MIN)) };
}
