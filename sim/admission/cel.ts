/**
 * CEL as the API server's admission plugins evaluate it (ValidatingAdmissionPolicy,
 * webhook matchConditions), on @marcbachmann/cel-js: expressions compiled once and kept,
 * JSON integers handed to CEL as ints, as the API server converts them.
 */
import { Environment } from '@marcbachmann/cel-js';

const env = new Environment({ unlistedVariablesAreDyn: true });
const compiled = new Map<string, ReturnType<Environment['parse']>>();

function compile(expression: string): ReturnType<Environment['parse']> {
  let fn = compiled.get(expression);
  if (!fn) {
    fn = env.parse(expression);
    compiled.set(expression, fn);
  }
  return fn;
}

/** Evaluates `expression` over `context`; throws what the evaluator throws. */
export function evaluate(expression: string, context: Record<string, unknown>): unknown {
  return compile(expression)(context);
}

/** Why `expression` does not parse, or undefined when it does. */
export function parseCel(expression: string): string | undefined {
  try {
    compile(expression);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** JSON as CEL sees it: integers are ints (bigint here), not doubles. */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  }
  return value;
}
