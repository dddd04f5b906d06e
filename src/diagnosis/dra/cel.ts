/**
 * DRA device selectors in CEL, evaluated with @marcbachmann/cel-js (zero dependencies,
 * custom types and methods; see docs/architecture.md for the comparison with cel-js).
 * The environment mirrors the one the Kubernetes allocator gives a selector
 * (k8s.io/dynamic-resource-allocation/cel/compile.go on the Kubernetes base CEL
 * environment): one variable `device` with `driver`, `allowMultipleAllocations`,
 * `attributes[domain][name]` and `capacity[domain][name]` (an unknown domain is an
 * empty map, a missing name an error; see cel-rewrite.ts), optional types, and the
 * Kubernetes `quantity` and `semver` libraries (cel-quantity.ts, cel-semver.ts).
 *
 * Three outcomes besides match and no-match:
 * - 'error': the selector fails here exactly as it fails upstream (a missing attribute
 *   or capacity name, an invalid quantity or version, an integer that does not fit, a
 *   version attribute that is not semver). The structured allocator then returns
 *   "CEL runtime error" and the scheduler's DynamicResources filter aborts scheduling
 *   of the pod with that error whenever its search reaches the device: never a match.
 * - 'unknown': anything this environment cannot settle (a function or form it does not
 *   know, a device attribute of a kind it does not read, a result that is not a bool, a
 *   pattern RE2 refuses, an int attribute rounded when read; see cel-strings.ts).
 *   Never a match either: the caller reports the device as possibly matching and says why.
 */
import { Environment, EvaluationError } from '@marcbachmann/cel-js';
import type { Device, DeviceSelector } from '../k8s-dra.js';
import {
  CelQuantity,
  CelRuntimeError,
  isCelQuantity,
  parseCelQuantity,
  quantityAdd,
  quantityAsFloat,
  quantityAsInteger,
  quantityCompare,
  quantityIsInteger,
  quantityNeg,
  quantityOfInt,
  quantitySign,
} from './cel-quantity.js';
import { CelSemver, compareSemver, isSemver, parseSemver, parseSemverNormalized } from './cel-semver.js';
import { DOMAIN_FN, UnsupportedSelector, nodes, ownName, rewriteSelector } from './cel-rewrite.js';
import {
  NotSettled,
  celCharAt,
  celFind,
  celFindAll,
  celIndexOf,
  celLastIndexOf,
  celLowerAscii,
  celMatches,
  celSplit,
  celSubstring,
  celTrim,
  celUpperAscii,
  hasAstral,
} from './cel-strings.js';

export type SelectorResult =
  | { result: 'match' }
  | { result: 'no-match' }
  | { result: 'error'; why: string }
  | { result: 'unknown'; why: string };

type Q = CelQuantity;
type S = CelSemver;
const int = (n: number): bigint => BigInt(n);

const env = new Environment({ unlistedVariablesAreDyn: false, enableOptionalTypes: true })
  .registerType('Quantity', CelQuantity)
  .registerType('Semver', CelSemver)
  .registerVariable('device', 'map')
  .registerFunction(`${DOMAIN_FN}(map, string): map`, (m: Record<string, unknown>, k: string) =>
    Object.hasOwn(m, k) ? m[k] : {},
  )
  .registerFunction('quantity(string): Quantity', parseCelQuantity)
  .registerFunction('isQuantity(string): bool', isCelQuantity)
  // A global function upstream (cel.Overload, not MemberOverload): sign(q), never q.sign().
  .registerFunction('sign(Quantity): int', (a: Q) => int(quantitySign(a)))
  .registerFunction('Quantity.isInteger(): bool', quantityIsInteger)
  .registerFunction('Quantity.asInteger(): int', quantityAsInteger)
  .registerFunction('Quantity.asApproximateFloat(): double', quantityAsFloat)
  .registerFunction('Quantity.add(Quantity): Quantity', quantityAdd)
  .registerFunction('Quantity.add(int): Quantity', (a: Q, n: bigint) => quantityAdd(a, quantityOfInt(n)))
  .registerFunction('Quantity.sub(Quantity): Quantity', (a: Q, b: Q) => quantityAdd(a, quantityNeg(b)))
  .registerFunction('Quantity.sub(int): Quantity', (a: Q, n: bigint) =>
    quantityAdd(a, quantityNeg(quantityOfInt(n))),
  )
  .registerFunction('Quantity.compareTo(Quantity): int', (a: Q, b: Q) => int(quantityCompare(a, b)))
  .registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: Q, b: Q) => quantityCompare(a, b) > 0)
  .registerFunction('Quantity.isLessThan(Quantity): bool', (a: Q, b: Q) => quantityCompare(a, b) < 0)
  .registerOperator('Quantity == Quantity', (a: Q, b: Q) => quantityCompare(a, b) === 0)
  .registerFunction('semver(string): Semver', parseSemver)
  .registerFunction('semver(string, bool): Semver', (s: string, normalize: boolean) =>
    normalize ? parseSemverNormalized(s) : parseSemver(s),
  )
  .registerFunction('isSemver(string): bool', (s: string) => isSemver(s))
  .registerFunction('isSemver(string, bool): bool', isSemver)
  .registerFunction('Semver.major(): int', (a: S) => a.major)
  .registerFunction('Semver.minor(): int', (a: S) => a.minor)
  .registerFunction('Semver.patch(): int', (a: S) => a.patch)
  .registerFunction('Semver.compareTo(Semver): int', (a: S, b: S) => int(compareSemver(a, b)))
  .registerFunction('Semver.isGreaterThan(Semver): bool', (a: S, b: S) => compareSemver(a, b) > 0)
  .registerFunction('Semver.isLessThan(Semver): bool', (a: S, b: S) => compareSemver(a, b) < 0)
  .registerOperator('Semver == Semver', (a: S, b: S) => compareSemver(a, b) === 0)
  // cel-go's string functions where the library's differ (cel-strings.ts; the selector's
  // calls are renamed to these by cel-rewrite.ts), and the Kubernetes regex library.
  .registerFunction(`string.${ownName('matches')}(string): bool`, celMatches)
  .registerFunction(`${ownName('matches')}(string, string): bool`, celMatches)
  .registerFunction('string.find(string): string', celFind)
  .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => celFindAll(s, p))
  .registerFunction('string.findAll(string, int): list<string>', celFindAll)
  .registerFunction(`string.${ownName('indexOf')}(string): int`, (s: string, t: string) => celIndexOf(s, t))
  .registerFunction(`string.${ownName('indexOf')}(string, int): int`, celIndexOf)
  .registerFunction(`string.${ownName('lastIndexOf')}(string): int`, (s: string, t: string) =>
    celLastIndexOf(s, t),
  )
  .registerFunction(`string.${ownName('lastIndexOf')}(string, int): int`, celLastIndexOf)
  .registerFunction(`string.${ownName('substring')}(int): string`, (s: string, a: bigint) =>
    celSubstring(s, a),
  )
  .registerFunction(`string.${ownName('substring')}(int, int): string`, celSubstring)
  .registerFunction('string.charAt(int): string', celCharAt)
  .registerFunction(`string.${ownName('split')}(string): list<string>`, (s: string, t: string) =>
    celSplit(s, t),
  )
  .registerFunction(`string.${ownName('split')}(string, int): list<string>`, celSplit)
  .registerFunction(`string.${ownName('lowerAscii')}(): string`, celLowerAscii)
  .registerFunction(`string.${ownName('upperAscii')}(): string`, celUpperAscii)
  .registerFunction(`string.${ownName('trim')}(): string`, celTrim);

/** Device fields of v1 (flat) or v1beta1 (`basic`). */
export function deviceFields(device: Device): Omit<Device, 'name' | 'basic'> {
  return device.basic ?? device;
}

/** Not a device a selector can be evaluated on, and whether upstream fails the same way. */
class DeviceInputError extends Error {
  constructor(
    message: string,
    readonly upstream: boolean,
  ) {
    super(message);
  }
}

/**
 * An int attribute read as a JavaScript number beyond ±(2^53 - 1): JSON.parse and the
 * YAML reader have already rounded it (int64 upstream), so its exact value is lost.
 */
class ImpreciseInt {
  constructor(readonly read: number) {}
}

function attributeValue(name: string, value: Record<string, unknown>): unknown {
  if (typeof value.int === 'number') {
    const exact = !Number.isInteger(value.int) || Number.isSafeInteger(value.int);
    return exact ? BigInt(value.int) : new ImpreciseInt(value.int);
  }
  if (typeof value.int === 'bigint') return value.int;
  if (typeof value.bool === 'boolean') return value.bool;
  if (typeof value.string === 'string') return value.string;
  if (typeof value.version === 'string') {
    try {
      return parseSemver(value.version);
    } catch (error) {
      // compile.go: "attribute <name>: parse semantic version", before any selector runs.
      throw new DeviceInputError(`attribute ${name}: parse semantic version: ${firstLine(error)}`, true);
    }
  }
  // List attributes exist behind a feature gate (DRAListTypeAttributes): without it the
  // allocator fails, with it they are lists. Which one applies is not known here.
  throw new DeviceInputError(`attribute ${name} is of a kind this analysis does not read`, false);
}

/** `device` as a selector sees it; unqualified names belong to the driver's domain. */
function celDevice(driver: string, device: Device): Record<string, unknown> {
  const fields = deviceFields(device);
  const attributes: Record<string, Record<string, unknown>> = {};
  const capacity: Record<string, Record<string, unknown>> = {};
  const put = (into: Record<string, Record<string, unknown>>, key: string, value: unknown): void => {
    const slash = key.indexOf('/');
    const domain = slash < 0 ? driver : key.slice(0, slash);
    const name = slash < 0 ? key : key.slice(slash + 1);
    const map = (into[domain] ??= {});
    if (value instanceof ImpreciseInt) {
      // A key (size() and the macros see it) whose value cannot be read: reading it, as
      // comparisons, has() and `in` here do, makes the selector unknown instead of
      // comparing a rounded number.
      Object.defineProperty(map, name, {
        enumerable: true,
        configurable: true,
        get: () => {
          throw new NotSettled(
            `attribute ${key} is the integer ${value.read} as read, beyond 2^53: JSON and YAML reading round it, so its exact value is unknown`,
          );
        },
      });
    } else {
      map[name] = value;
    }
  };
  for (const [key, value] of Object.entries(fields.attributes ?? {})) {
    put(attributes, key, attributeValue(key, value as unknown as Record<string, unknown>));
  }
  for (const [key, value] of Object.entries(fields.capacity ?? {})) {
    if (
      typeof value.value === 'number' &&
      !Number.isSafeInteger(value.value) &&
      Number.isInteger(value.value)
    ) {
      throw new DeviceInputError(
        `capacity ${key} is the number ${value.value} as read, beyond 2^53 (rounded)`,
        false,
      );
    }
    try {
      put(capacity, key, parseCelQuantity(String(value.value)));
    } catch {
      throw new DeviceInputError(`capacity ${key} is not a quantity as read`, false);
    }
  }
  return {
    driver,
    allowMultipleAllocations: fields.allowMultipleAllocations === true,
    attributes,
    capacity,
  };
}

interface Selector {
  run: (ctx: Record<string, unknown>) => unknown;
  /** Orders values with < <= > >=, and has a string literal outside the BMP. */
  orders: boolean;
  astral: boolean;
}
type Compiled = Selector | Error;
const compiled = new Map<string, Compiled>();

function compile(expression: string): Compiled {
  let fn = compiled.get(expression);
  if (!fn) {
    try {
      const ast = env.parse(expression).ast;
      const run = env.parse(rewriteSelector(expression, ast));
      let orders = false;
      let astral = false;
      for (const node of nodes(ast)) {
        if (['<', '<=', '>', '>='].includes(node.op)) orders = true;
        if (node.op === 'value' && typeof node.args === 'string' && hasAstral(node.args)) astral = true;
      }
      fn = { run: (ctx) => run(ctx) as unknown, orders, astral };
    } catch (error) {
      fn = error instanceof Error ? error : new Error(String(error));
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(expression, fn);
  }
  return fn;
}

/** A runtime error the Kubernetes environment raises too (see the module comment). */
function isUpstreamError(error: unknown): boolean {
  if (error instanceof CelRuntimeError) return true;
  if (!(error instanceof EvaluationError) || error.code !== 'no_such_key') return false;
  // A name missing from an attribute or capacity domain (the domain itself never is).
  const node = error.node as { op?: string; args?: unknown } | undefined;
  const operand = Array.isArray(node?.args) ? (node.args[0] as { op?: string; args?: unknown[] }) : undefined;
  return (node?.op === '.' || node?.op === '[]') && operand?.op === 'call' && operand.args?.[0] === DOMAIN_FN;
}

/** One CEL expression against one device. */
export function evaluateExpression(expression: string, driver: string, device: Device): SelectorResult {
  const fn = compile(expression);
  if (fn instanceof Error) {
    const why = fn instanceof UnsupportedSelector ? fn.message : firstLine(fn);
    return { result: 'unknown', why: `the selector does not compile here (${why})` };
  }
  let input: Record<string, unknown>;
  try {
    input = celDevice(driver, device);
  } catch (error) {
    if (error instanceof DeviceInputError && error.upstream) return { result: 'error', why: error.message };
    return { result: 'unknown', why: `the device could not be read for its selectors (${firstLine(error)})` };
  }
  if (fn.orders && (fn.astral || deviceHasAstral(input))) {
    // JavaScript orders strings by UTF-16 units, cel-go by code points (UTF-8 bytes):
    // the two differ once a character lies outside the Basic Multilingual Plane.
    return {
      result: 'unknown',
      why: 'the selector orders values (< <= > >=) and a string here has a character outside the Basic Multilingual Plane, which this analysis does not order as CEL does',
    };
  }
  try {
    const value = fn.run({ device: input });
    if (value === true) return { result: 'match' };
    if (value === false) return { result: 'no-match' };
    return { result: 'unknown', why: 'the selector does not evaluate to a bool' };
  } catch (error) {
    if (isUpstreamError(error)) return { result: 'error', why: firstLine(error) };
    if (error instanceof NotSettled)
      return { result: 'unknown', why: `the selector could not be settled here (${firstLine(error)})` };
    return { result: 'unknown', why: `the selector could not be evaluated (${firstLine(error)})` };
  }
}

/**
 * Selectors in order, as the allocator runs them: a no-match or an error ends the
 * evaluation. After a selector this analysis could not settle, a later error is only
 * possibly reached, so it stays unknown; a later no-match still settles "no match".
 */
export function evaluateSelectors(
  selectors: readonly DeviceSelector[] | undefined,
  driver: string,
  device: Device,
): SelectorResult {
  let unknown: SelectorResult | undefined;
  for (const [index, selector] of (selectors ?? []).entries()) {
    const expression = selector.cel?.expression;
    if (expression === undefined) {
      unknown ??= { result: 'unknown', why: `selector #${index} is of a kind other than CEL` };
      continue;
    }
    const result = evaluateExpression(expression, driver, device);
    if (result.result === 'no-match') return result;
    if (result.result === 'error') {
      if (!unknown) return { result: 'error', why: `selector #${index}: CEL runtime error: ${result.why}` };
      continue;
    }
    if (result.result === 'unknown')
      unknown ??= { result: 'unknown', why: `selector #${index}: ${result.why}` };
  }
  return unknown ?? { result: 'match' };
}

function deviceHasAstral(input: Record<string, unknown>): boolean {
  const strings = (v: unknown): boolean =>
    typeof v === 'string'
      ? hasAstral(v)
      : typeof v === 'object' && v !== null && !(v instanceof CelSemver) && !(v instanceof CelQuantity)
        ? Object.keys(v).some((k) => hasAstral(k) || strings(Object.getOwnPropertyDescriptor(v, k)?.value))
        : false;
  return strings(input);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 160);
}
