/**
 * Renders a new event (a plain object) as YAML text in the style of its neighbours, with the yaml
 * library's Document API: a flow map `{ to: rates, row: { ... } }` on one line, or a block map
 * whose nested maps (the row) stay in flow style.
 */
import { Document, isMap, isScalar, Scalar } from 'yaml';
import type { Node } from 'yaml';

/** A number kept exactly as written (`1.10` stays 1.10, which DECIMAL values need). */
export class ExactNumber {
  constructor(readonly text: string) {
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal number: ${text}`);
  }
}

export type EventValue = string | number | boolean | null | ExactNumber | { readonly [key: string]: EventValue };
/** An event as the app builds it: `{ to: 'rates', row: { currency: 'EUR', usd_rate: new ExactNumber('1.10') } }`. */
export type EventObject = { readonly [key: string]: EventValue };

export interface ItemStyle {
  readonly flow: boolean;
}

/** Words YAML would read as something else when plain; the library quotes these by itself. */
const SIMPLE_WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The event's YAML text: one line for flow style, several (unindented) for block style. */
export function renderEvent(event: EventObject, style: ItemStyle): string {
  const doc = new Document();
  const node = toNode(doc, event, style.flow);
  doc.contents = node;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true }).replace(/\n$/, '');
}

function toNode(doc: Document, value: EventValue, flow: boolean): Node {
  if (value instanceof ExactNumber) return exactScalar(value.text);
  if (value === null || typeof value !== 'object') return scalarOf(doc, value);
  const map = doc.createNode({}) as Node;
  if (!isMap(map)) throw new Error('internal: createNode({}) did not make a map');
  map.flow = flow;
  for (const [k, v] of Object.entries(value)) map.add(doc.createPair(k, toNode(doc, v, true)));
  return map;
}

/**
 * Strings that are not a plain word are double-quoted, as the bundled scenarios write times
 * (`"09:30"`), kinds (`"+U"`) and notes; plain words (`EUR`, `rates`) stay plain.
 */
function scalarOf(doc: Document, value: string | number | boolean | null): Node {
  const node = doc.createNode(value) as Node;
  if (isScalar(node) && typeof value === 'string' && !SIMPLE_WORD.test(value)) node.type = Scalar.QUOTE_DOUBLE;
  if (isScalar(node) && typeof value === 'number' && !Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return node;
}

function exactScalar(text: string): Node {
  const fraction = text.split('.')[1]?.length ?? 0;
  const n = Number(text);
  const node = new Scalar(n);
  node.minFractionDigits = fraction;
  // A float cannot hold every decimal: refuse rather than write a different number.
  const back = fraction > 0 ? n.toFixed(fraction) : String(n);
  if (back !== text.replace(/^(-?)0+(?=\d)/, '$1')) throw new Error(`${text} has more digits than can be written exactly`);
  return node;
}
