/**
 * The simulator's own evaluation of DRA device selectors (CEL), kept apart from the
 * product's (src/diagnosis/dra) so the simulator can tell it wrong: the environment the
 * Kubernetes allocator compiles selectors in (k8s.io/dynamic-resource-allocation/cel
 * compile.go), reduced to what scenarios use:
 * - `device.driver`; `device.attributes["<domain>"].<name>` (an attribute named without
 *   a domain is in the driver's; int, bool, string and version values; a domain the
 *   device does not have is an empty map, so `has()` is false, but reading a name it
 *   lacks is a runtime error); `device.capacity["<domain>"].<name>` as a quantity;
 *   `has()` of such a name;
 * - `quantity("80Gi")` with `compareTo`, `isGreaterThan`, `isLessThan`, `asInteger` and
 *   `==`; `semver("1.2.3")` with `compareTo`, `isGreaterThan`, `isLessThan`, `major`,
 *   `minor`, `patch` and `==`.
 * A runtime error, or a result that is not a bool, never matches (upstream the
 * scheduler then fails the pod's scheduling with the CEL error; the simulator only
 * leaves the device out).
 */
import { Environment } from '@marcbachmann/cel-js';
import { parseQuantity } from '../admission/quantity.js';

class SimQuantity {
  constructor(readonly nano: bigint) {}
}

class SimSemver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
  ) {}
}

function quantity(text: string): SimQuantity {
  return new SimQuantity(parseQuantity(text).nano);
}

function semver(text: string): SimSemver {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text);
  if (!m) throw new Error(`invalid semver ${JSON.stringify(text)}`);
  return new SimSemver(BigInt(m[1] ?? 0), BigInt(m[2] ?? 0), BigInt(m[3] ?? 0));
}

const cmp = (a: bigint, b: bigint): bigint => (a < b ? -1n : a > b ? 1n : 0n);
const cmpSemver = (a: SimSemver, b: SimSemver): bigint =>
  cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch);

const env = new Environment({ unlistedVariablesAreDyn: false, enableOptionalTypes: true })
  .registerType('Quantity', SimQuantity)
  .registerType('Semver', SimSemver)
  .registerVariable('device', 'map')
  .registerFunction('quantity(string): Quantity', quantity)
  .registerFunction('Quantity.compareTo(Quantity): int', (a: SimQuantity, b: SimQuantity) =>
    cmp(a.nano, b.nano),
  )
  .registerFunction(
    'Quantity.isGreaterThan(Quantity): bool',
    (a: SimQuantity, b: SimQuantity) => a.nano > b.nano,
  )
  .registerFunction(
    'Quantity.isLessThan(Quantity): bool',
    (a: SimQuantity, b: SimQuantity) => a.nano < b.nano,
  )
  .registerFunction('Quantity.asInteger(): int', (a: SimQuantity) => a.nano / 1_000_000_000n)
  .registerOperator('Quantity == Quantity', (a: SimQuantity, b: SimQuantity) => a.nano === b.nano)
  .registerFunction('semver(string): Semver', semver)
  .registerFunction('Semver.compareTo(Semver): int', cmpSemver)
  .registerFunction(
    'Semver.isGreaterThan(Semver): bool',
    (a: SimSemver, b: SimSemver) => cmpSemver(a, b) > 0n,
  )
  .registerFunction('Semver.isLessThan(Semver): bool', (a: SimSemver, b: SimSemver) => cmpSemver(a, b) < 0n)
  .registerFunction('Semver.major(): int', (a: SimSemver) => a.major)
  .registerFunction('Semver.minor(): int', (a: SimSemver) => a.minor)
  .registerFunction('Semver.patch(): int', (a: SimSemver) => a.patch)
  .registerOperator('Semver == Semver', (a: SimSemver, b: SimSemver) => cmpSemver(a, b) === 0n);

/** A device as a ResourceSlice lists it (v1: flat; v1beta1: under `basic`). */
export interface SliceDevice {
  name: string;
  attributes?: Record<string, { int?: number; bool?: boolean; string?: string; version?: string }>;
  capacity?: Record<string, { value?: string } | string>;
  taints?: { key: string; value?: string; effect: string }[];
  basic?: Omit<SliceDevice, 'name' | 'basic'>;
}

type Domains = Record<string, Record<string, unknown>>;

function byDomain<T>(entries: Record<string, T>, driver: string, convert: (v: T) => unknown): Domains {
  const out: Domains = {};
  for (const [qualified, value] of Object.entries(entries)) {
    const slash = qualified.lastIndexOf('/');
    const domain = slash < 0 ? driver : qualified.slice(0, slash);
    const name = slash < 0 ? qualified : qualified.slice(slash + 1);
    (out[domain] ??= {})[name] = convert(value);
  }
  return out;
}

function attributeValue(v: NonNullable<SliceDevice['attributes']>[string]): unknown {
  if (v.int !== undefined) return BigInt(v.int);
  if (v.bool !== undefined) return v.bool;
  if (v.string !== undefined) return v.string;
  if (v.version !== undefined) return semver(v.version);
  return undefined;
}

/** Domains the expression reads (`attributes["x"]`, `capacity["x"]`): an empty map where the device has none. */
function withReadDomains(domains: Domains, expression: string, field: string): Domains {
  const pattern = new RegExp(`${field}\\s*\\[\\s*"([^"]+)"\\s*\\]`, 'g');
  for (const m of expression.matchAll(pattern)) domains[m[1] ?? ''] ??= {};
  return domains;
}

/**
 * cel-js refuses `has()` on a field of an indexed map (`has(device.attributes["d"].model)`),
 * which CEL defines as the presence of the key: the same test as `(e).?model.hasValue()`
 * (optional types are part of the Kubernetes CEL environment since 1.28).
 */
function withPresenceTests(expression: string): string {
  return expression.replace(
    /has\(\s*(device\.(?:attributes|capacity)\s*\[\s*"[^"]+"\s*\])\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/g,
    '($1).?$2.hasValue()',
  );
}

/** Whether `expression` selects the device; a runtime error or a non-bool result does not. */
export function selectorMatches(expression: string, driver: string, device: SliceDevice): boolean {
  const fields = device.basic ?? device;
  const attributes = byDomain(fields.attributes ?? {}, driver, attributeValue);
  const capacity = byDomain(fields.capacity ?? {}, driver, (v) =>
    quantity(typeof v === 'string' ? v : (v.value ?? '0')),
  );
  const context = {
    device: {
      driver,
      attributes: withReadDomains(attributes, expression, 'attributes'),
      capacity: withReadDomains(capacity, expression, 'capacity'),
    },
  };
  try {
    return env.evaluate(withPresenceTests(expression), context) === true;
  } catch {
    return false;
  }
}
