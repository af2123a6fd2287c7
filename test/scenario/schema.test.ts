/**
 * The JSON Schema for scenario files (schema/scenario.schema.json): generated from the loader's
 * tables and committed; every real scenario validates; every schema-level mistake in
 * test/fixtures/schema-bad/ fails both the schema and the loader (for the reason its header
 * names); and the forms the schema spells out by hand are the ones the loader accepts.
 *
 * Validated with Ajv (a dev dependency), a widely used, spec-complete JSON Schema validator, in
 * strict mode, which also rejects a malformed schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatDiagnostic } from '../../src/scenario/diagnostic.js';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import { scenarioSchema, scenarioSchemaText } from '../../src/scenario/schema.js';
import { REPO_ROOT, SPEC_EXAMPLES_DIR, yamlFiles } from '../paths.js';

const SCHEMA_FILE = join(REPO_ROOT, 'schema', 'scenario.schema.json');
const BAD_DIR = join(REPO_ROOT, 'test', 'fixtures', 'schema-bad');
const BUNDLED = join(REPO_ROOT, 'scenarios');

const validate: ValidateFunction = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true }).compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);

/** The schema's complaints about a YAML text (as the language server reads it: YAML 1.2), or [] when it validates. */
function schemaErrors(text: string): string[] {
  const ok = validate(parse(text));
  return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

describe('the committed schema', () => {
  it('is what the loader\'s tables generate (run `npm run schema` after changing them)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(scenarioSchemaText());
  });

  it('requires what the loader requires and closes every map the loader closes', () => {
    const s = scenarioSchema() as { required: string[]; additionalProperties: boolean };
    expect(s.required).toEqual(['name', 'sql', 'events']);
    expect(s.additionalProperties).toBe(false);
  });
});

describe('real scenarios validate', () => {
  const files = [...yamlFiles([BUNDLED, SPEC_EXAMPLES_DIR, join(REPO_ROOT, 'test', 'flink-cases'), join(REPO_ROOT, 'test', 'fixtures', 'schema-good')])];

  it('finds the bundled scenarios, the conformance examples and the Flink cases', () => {
    expect(files.length).toBeGreaterThan(80);
  });

  it.each(files.map((f) => [f.slice(REPO_ROOT.length + 1), f]))('%s', (_name, file) => {
    expect(schemaErrors(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('the every-key fixture does load (so its forms are ones the loader accepts)', async () => {
    const r = await loadScenarioFile(join(REPO_ROOT, 'test', 'fixtures', 'schema-good', 'every-key.yaml'));
    expect(r.ok ? [] : r.diagnostics.map(formatDiagnostic)).toEqual([]);
  });

  it.each(yamlFiles([BUNDLED]).map((f) => [f.slice(REPO_ROOT.length + 1)]))('%s names the schema on its first line', (name) => {
    const first = readFileSync(join(REPO_ROOT, name), 'utf8').split('\n')[0];
    expect(first).toBe('# yaml-language-server: $schema=../schema/scenario.schema.json');
  });
});

describe('schema-level mistakes fail the schema and the loader', () => {
  const bad = readdirSync(BAD_DIR).filter((f) => f.endsWith('.yaml')).sort();

  it('has a fixture for each kind of mistake', () => {
    expect(bad.length).toBeGreaterThanOrEqual(30);
  });

  it.each(bad)('%s', (name) => {
    const text = readFileSync(join(BAD_DIR, name), 'utf8');
    const wanted = /^# loader-error: (.+)$/m.exec(text)?.[1];
    expect(wanted, 'a `# loader-error: <message substring>` header line').toBeDefined();
    expect(schemaErrors(text), 'the schema accepted it').not.toEqual([]);
    const loaded = loadScenarioText(name, text);
    expect(loaded.ok, 'the loader accepted it').toBe(false);
    if (!loaded.ok) expect(loaded.diagnostics.map((d) => d.message).join('\n')).toContain(wanted);
  });
});

describe('the forms the schema spells out are the loader\'s', () => {
  const BASE = [
    'name: t',
    'sql: |',
    "  CREATE TABLE a (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');",
    "  CREATE TABLE b (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');",
    '  SELECT a.k FROM a JOIN b ON a.k = b.k;',
  ].join('\n');
  /** Both verdicts on a scenario with `top` added and `events`. */
  const verdicts = (top: string, events = '  - { to: a, row: { k: x, ts: "09:00" } }') => {
    const text = `${BASE}\n${top}\nevents:\n${events}\n`;
    const loaded = loadScenarioText('x.yaml', text);
    return { schema: schemaErrors(text).length === 0, loader: loaded.ok, why: loaded.ok ? '' : loaded.diagnostics.map((d) => d.message).join('; ') };
  };
  const agree = (top: string, events?: string) => {
    const v = verdicts(top, events);
    expect(v.schema, `${top} ${events ?? ''}: schema ${v.schema}, loader ${v.loader} ${v.why}`).toBe(v.loader);
  };

  it.each([
    'AUTO', 'none', 'Force', 'SOMETIMES',
  ])('table.exec.sink.upsert-materialize: %s', (v) => agree(`config:\n  table.exec.sink.upsert-materialize: ${v}`));

  it.each(['IGNORE', 'try_resolve', 'RESOLVE'])('table.optimizer.non-deterministic-update.strategy: %s', (v) => agree(`config:\n  table.optimizer.non-deterministic-update.strategy: ${v}`));

  it.each(['true', 'False', '"TRUE"', 'yes', '1'])('table.exec.source.cdc-events-duplicate: %s', (v) => agree(`config:\n  table.exec.source.cdc-events-duplicate: ${v}`));

  it.each(['0', '1500', '250 ms', '5s', '30 min', '2 H', '1 d', '5 m', '10 millis', '3 seconds', '-1', '1.5 s', '5 fortnights', 'soon', 'true'])('table.exec.state.ttl: %s', (v) =>
    agree(`config:\n  table.exec.state.ttl: ${v}`),
  );

  it.each(['2.0', '2.4', '"2.3"', '2.3.1', '1.18', '3.0', '"2.10"'])('flink-version: %s', (v) => agree(`flink-version: ${v}`));

  it('known difference: an unquoted `flink-version: 2.10` is the number 2.1 to the schema, "2.10" to the loader', () => {
    // The loader reads the version's source text; a JSON Schema sees only the YAML number.
    expect(verdicts('flink-version: 2.10')).toMatchObject({ schema: true, loader: false });
  });

  it.each(['auto', 'manual', 'Auto', 'none'])('watermarks: %s', (v) => agree(`watermarks: ${v}`));

  it.each(['+I', '-U', '+U', '-D', '+i', '-d', '+D', '-I', 'I', 'insert'])('op: %s', (v) => agree('', `  - { to: a, op: "${v}", row: { k: x, ts: "09:00" } }`));

  it.each(['"09:30"', '"9:30"', '"09:30:15.250"', '"2026-10-01 09:30"', '"2026-10-01T09:30:00"', '0', '1790000000000', '"1790000000000"', '"2026-10-01"', '"half past"', '"25:00:00:00"', '"09:30Z"'])('at: %s', (v) =>
    agree('', `  - { at: ${v}, to: a, row: { k: x, ts: "09:00" } }`),
  );

  it.each(['"10:00"', 'max', '0', '"2026-10-01 10:00"', 'soon', '"+02:00"'])('watermark to: %s', (v) => agree('', `  - { watermark: a, to: ${v} }`));

  it.each(['5 s', '1', '0', '-5', '250 ms', '1.5 s', '5 m'])('advance: %s', (v) => agree('', `  - { advance: ${v} }`));

  it.each(['0', '1', '-1', '"0"', '1.5'])('partition: %s', (v) => agree('partitions: { a: 2 }', `  - { to: a, partition: ${v}, row: { k: x, ts: "09:00" } }`));

  it.each(['1', '256', '257', '0', '"2"'])('partitions: { a: %s }', (v) => agree(`partitions: { a: ${v} }`));

  it.each(['2026-10-01', '2026-1-01', '"2026-10-01"', '20261001'])('date: %s', (v) => agree(`date: ${v}`));
});
