/**
 * DRA device selectors in CEL, evaluated with @marcbachmann/cel-js (zero dependencies,
 * custom types and methods; see docs/architecture.md for the comparison with cel-js).
 * The environment mirrors the one the Kubernetes allocator gives a selector: one
 * variable `device` with `driver`, `attributes[domain][name]` and
 * `capacity[domain][name]`, plus the Kubernetes CEL library's `quantity()` and
 * `semver()` with `compareTo`, `isGreaterThan` and `isLessThan`.
 *
 * Anything the library cannot evaluate (a parse or runtime error, a function it does
 * not know, a result that is not a bool) is 'unknown', never 'match': the caller
 * reports the device as possibly matching and says why.
 */
import { Environment } from '@marcbachmann/cel-js';
import type { Device, DeviceAttribute, DeviceSelector } from '../k8s.js';
import { parseExact, quantityMilli } from '../placement/quantity.js';

export type SelectorResult =
  { result: 'match' } | { result: 'no-match' } | { result: 'unknown'; why: string };

class CelQuantity {
  constructor(readonly milli: number) {}
}

class CelSemver {
  constructor(readonly parts: readonly number[]) {}
}

function toQuantity(text: string): CelQuantity {
  if (!parseExact(text)) throw new Error(`invalid quantity "${text}"`);
  return new CelQuantity(quantityMilli(text));
}

function toSemver(text: string): CelSemver {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  if (!m) throw new Error(`invalid semver "${text}"`);
  return new CelSemver([Number(m[1]), Number(m[2]), Number(m[3])]);
}

function compareSemver(a: CelSemver, b: CelSemver): number {
  for (let i = 0; i < 3; i++) {
    const d = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

const env = new Environment({ unlistedVariablesAreDyn: false })
  .registerType('Quantity', CelQuantity)
  .registerType('Semver', CelSemver)
  .registerVariable('device', 'map')
  .registerFunction('quantity(string): Quantity', toQuantity)
  .registerFunction('isQuantity(string): bool', (s: string) => parseExact(s) !== undefined)
  .registerFunction('Quantity.compareTo(Quantity): int', (a: CelQuantity, b: CelQuantity) =>
    BigInt(Math.sign(a.milli - b.milli)),
  )
  .registerFunction(
    'Quantity.isGreaterThan(Quantity): bool',
    (a: CelQuantity, b: CelQuantity) => a.milli > b.milli,
  )
  .registerFunction(
    'Quantity.isLessThan(Quantity): bool',
    (a: CelQuantity, b: CelQuantity) => a.milli < b.milli,
  )
  .registerFunction('Quantity.asInteger(): int', (a: CelQuantity) => BigInt(Math.ceil(a.milli / 1000)))
  .registerFunction('semver(string): Semver', toSemver)
  .registerFunction('Semver.compareTo(Semver): int', (a: CelSemver, b: CelSemver) =>
    BigInt(compareSemver(a, b)),
  )
  .registerFunction(
    'Semver.isGreaterThan(Semver): bool',
    (a: CelSemver, b: CelSemver) => compareSemver(a, b) > 0,
  )
  .registerFunction(
    'Semver.isLessThan(Semver): bool',
    (a: CelSemver, b: CelSemver) => compareSemver(a, b) < 0,
  );

/** Device fields of v1 (flat) or v1beta1 (`basic`). */
export function deviceFields(device: Device): Omit<Device, 'name' | 'basic'> {
  return device.basic ?? device;
}

function attributeValue(value: DeviceAttribute): unknown {
  if (value.int !== undefined) return BigInt(value.int);
  if (value.bool !== undefined) return value.bool;
  if (value.string !== undefined) return value.string;
  if (value.version !== undefined) {
    try {
      return toSemver(value.version);
    } catch {
      return value.version;
    }
  }
  return undefined;
}

/** `device` as a selector sees it; unqualified names belong to the driver's domain. */
export function celDevice(driver: string, device: Device): Record<string, unknown> {
  const fields = deviceFields(device);
  const attributes: Record<string, Record<string, unknown>> = {};
  const capacity: Record<string, Record<string, unknown>> = {};
  const put = (into: Record<string, Record<string, unknown>>, key: string, value: unknown): void => {
    const slash = key.lastIndexOf('/');
    const domain = slash < 0 ? driver : key.slice(0, slash);
    const name = slash < 0 ? key : key.slice(slash + 1);
    into[domain] = { ...(into[domain] ?? {}), [name]: value };
  };
  for (const [key, value] of Object.entries(fields.attributes ?? {})) {
    const converted = attributeValue(value);
    if (converted !== undefined) put(attributes, key, converted);
  }
  for (const [key, value] of Object.entries(fields.capacity ?? {})) {
    try {
      put(capacity, key, toQuantity(String(value.value)));
    } catch {
      // A capacity that is not a quantity is left out: a selector reading it errs, so 'unknown'.
    }
  }
  if (!attributes[driver]) attributes[driver] = {};
  if (!capacity[driver]) capacity[driver] = {};
  return { driver, attributes, capacity };
}

const parsed = new Map<string, ((ctx: Record<string, unknown>) => unknown) | Error>();

function compile(expression: string): ((ctx: Record<string, unknown>) => unknown) | Error {
  let fn = parsed.get(expression);
  if (!fn) {
    try {
      const run = env.parse(expression);
      fn = (ctx) => run(ctx) as unknown;
    } catch (error) {
      fn = error instanceof Error ? error : new Error(String(error));
    }
    if (parsed.size > 1000) parsed.clear();
    parsed.set(expression, fn);
  }
  return fn;
}

/** One CEL expression against one device. */
export function evaluateExpression(expression: string, driver: string, device: Device): SelectorResult {
  const fn = compile(expression);
  if (fn instanceof Error)
    return { result: 'unknown', why: `the selector does not parse here (${firstLine(fn)})` };
  try {
    const value = fn({ device: celDevice(driver, device) });
    if (value === true) return { result: 'match' };
    if (value === false) return { result: 'no-match' };
    return { result: 'unknown', why: 'the selector does not evaluate to a bool' };
  } catch (error) {
    return { result: 'unknown', why: `the selector could not be evaluated (${firstLine(error)})` };
  }
}

/** All selectors must hold (they are ANDed); one 'no-match' settles it, else any 'unknown' stays. */
export function evaluateSelectors(
  selectors: readonly DeviceSelector[] | undefined,
  driver: string,
  device: Device,
): SelectorResult {
  let unknown: SelectorResult | undefined;
  for (const selector of selectors ?? []) {
    const expression = selector.cel?.expression;
    if (expression === undefined) {
      unknown ??= { result: 'unknown', why: 'a selector of a kind other than CEL' };
      continue;
    }
    const result = evaluateExpression(expression, driver, device);
    if (result.result === 'no-match') return result;
    if (result.result === 'unknown') unknown ??= result;
  }
  return unknown ?? { result: 'match' };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 160);
}
