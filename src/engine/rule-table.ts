/**
 * A table from rule names to a value made once per rule (a bulk Why, a changelog rule code), with
 * the last two lookups remembered: a bulk run looks a rule up once per emitted row, mostly one or
 * two rules in turn (matched and padded), and comparing a rule name with the last ones costs less
 * than the map's hash and probe.
 */
export class RuleTable<V> {
  private readonly byRule = new Map<string, V>();
  private lastRule: string | undefined;
  private lastValue: V | undefined;
  private otherRule: string | undefined;
  private otherValue: V | undefined;

  /** `make`: the value of a rule seen for the first time. */
  constructor(private readonly make: (rule: string) => V) {}

  get(rule: string): V {
    if (rule === this.lastRule) return this.lastValue as V;
    let v: V | undefined;
    if (rule === this.otherRule) v = this.otherValue as V;
    else {
      v = this.byRule.get(rule);
      if (v === undefined) {
        v = this.make(rule);
        this.byRule.set(rule, v);
      }
    }
    this.otherRule = this.lastRule;
    this.otherValue = this.lastValue;
    this.lastRule = rule;
    this.lastValue = v;
    return v;
  }

  /** The rule's value if it was made, without making it. */
  peek(rule: string): V | undefined {
    return this.byRule.get(rule);
  }
}
