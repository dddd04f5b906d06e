/**
 * The Kubernetes CEL `quantity` library (k8s.io/apiserver/pkg/cel/library/quantity.go)
 * over resource.Quantity as k8s.io/apimachinery parses and adds it. A Quantity keeps
 * either a fast int64 amount (value * 10^scale) or an arbitrary-precision decimal, and
 * the difference shows: `asInteger()`/`isInteger()` (`AsInt64`) succeed only for an
 * int64 amount with a non-negative scale, so `quantity("1000m").isInteger()` is false
 * and `quantity("1.5Gi").isInteger()` too (the binary fraction takes the decimal path).
 * Comparison, equality and sign are exact whatever the representation.
 */

/** A CEL runtime error the Kubernetes library raises the same way (the selector errs upstream too). */
export class CelRuntimeError extends Error {}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_INT64_FACTORS = 18;
const NANO = -9;

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const inInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= INT64_MAX;

/** value = unscaled * 10^exp; `fast` for resource.Quantity's int64Amount (exp is its scale). */
export class CelQuantity {
  constructor(
    readonly unscaled: bigint,
    readonly exp: number,
    readonly fast: boolean,
  ) {}
}

const SPLIT = /^([+-]?)(0*)(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[-+]?\d*)$/;

function suffixOf(suffix: string): { base: 2 | 10; exponent: number; binary: boolean } | undefined {
  if (Object.hasOwn(BINARY, suffix)) return { base: 2, exponent: BINARY[suffix] ?? 0, binary: true };
  if (Object.hasOwn(DECIMAL, suffix)) return { base: 10, exponent: DECIMAL[suffix] ?? 0, binary: false };
  const e = /^[eE]([+-]?\d+)$/.exec(suffix);
  if (e?.[1] === undefined) return undefined;
  const exponent = Number.parseInt(e[1], 10);
  return Number.isSafeInteger(exponent) ? { base: 10, exponent, binary: false } : undefined;
}

/** resource.ParseQuantity, with its errors. */
export function parseCelQuantity(text: string): CelQuantity {
  if (text.length === 0) throw new CelRuntimeError('quantities must match the regular expression');
  if (text === '0') return new CelQuantity(0n, 0, true);
  const m = SPLIT.exec(text);
  if (!m) throw new CelRuntimeError('quantities must match the regular expression');
  const [, sign = '', , numRaw = '', denom = '', suffix = ''] = m;
  const num = numRaw === '' ? '0' : numRaw;
  const unit = suffixOf(suffix);
  if (!unit) throw new CelRuntimeError("unable to parse quantity's suffix");
  const negative = sign === '-';
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (!unit.binary) {
    scale = unit.exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  } else if (unit.exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(unit.exponent);
    precision = 15 - num.length - Math.trunc((unit.exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const value = BigInt(num + denom) * mantissa;
      if (inInt64(value)) return new CelQuantity(negative ? -value : value, scale, true);
    }
  }
  // The inf.Dec path: exact, rounded away from zero to 1n, binary amounts capped at int64.
  let unscaled = BigInt(num + denom);
  let exp = -denom.length;
  if (unit.base === 10) exp += unit.exponent;
  else unscaled *= 1n << BigInt(unit.exponent);
  if (unscaled !== 0n && exp < NANO) {
    const div = 10n ** BigInt(NANO - exp);
    unscaled = (unscaled + div - 1n) / div;
    exp = NANO;
  }
  if (unit.binary && compare(unscaled, exp, INT64_MAX, 0) > 0) [unscaled, exp] = [INT64_MAX, 0];
  return new CelQuantity(negative ? -unscaled : unscaled, exp, false);
}

export function isCelQuantity(text: string): boolean {
  try {
    parseCelQuantity(text);
    return true;
  } catch {
    return false;
  }
}

function compare(a: bigint, ae: number, b: bigint, be: number): number {
  const e = Math.min(ae, be);
  const x = a * 10n ** BigInt(ae - e);
  const y = b * 10n ** BigInt(be - e);
  return x === y ? 0 : x > y ? 1 : -1;
}

export function quantityCompare(a: CelQuantity, b: CelQuantity): number {
  return compare(a.unscaled, a.exp, b.unscaled, b.exp);
}

export function quantitySign(a: CelQuantity): number {
  return a.unscaled === 0n ? 0 : a.unscaled > 0n ? 1 : -1;
}

/** Quantity.AsInt64: only an int64 amount whose scale is not negative converts. */
function asInt64(a: CelQuantity): bigint | undefined {
  if (!a.fast || a.exp < 0) return undefined;
  const v = a.unscaled * 10n ** BigInt(a.exp);
  return inInt64(v) ? v : undefined;
}

export function quantityIsInteger(a: CelQuantity): boolean {
  return asInt64(a) !== undefined;
}

export function quantityAsInteger(a: CelQuantity): bigint {
  const v = asInt64(a);
  if (v === undefined) throw new CelRuntimeError('cannot convert value to integer');
  return v;
}

/** AsApproximateFloat64: base * 10^exponent in float64. */
export function quantityAsFloat(a: CelQuantity): number {
  const base = Number(a.unscaled);
  if (a.exp === 0) return base;
  return a.exp > 0 ? base * 10 ** a.exp : base * (1 / 10 ** -a.exp);
}

/** Quantity.Add: int64Amount.Add when both are int64 amounts and nothing overflows, else exact decimal. */
export function quantityAdd(a: CelQuantity, b: CelQuantity): CelQuantity {
  if (a.fast && b.fast) {
    if (b.unscaled === 0n) return a;
    if (a.unscaled === 0n) return b;
    const e = Math.min(a.exp, b.exp);
    const x = a.unscaled * 10n ** BigInt(a.exp - e);
    const y = b.unscaled * 10n ** BigInt(b.exp - e);
    if (inInt64(x) && inInt64(y) && inInt64(x + y)) return new CelQuantity(x + y, e, true);
  }
  const e = Math.min(a.exp, b.exp);
  const sum = a.unscaled * 10n ** BigInt(a.exp - e) + b.unscaled * 10n ** BigInt(b.exp - e);
  return new CelQuantity(sum, e, false);
}

export function quantityNeg(a: CelQuantity): CelQuantity {
  const v = -a.unscaled;
  return new CelQuantity(v, a.exp, a.fast && inInt64(v));
}

/** An int operand as resource.NewQuantity(n, DecimalExponent): an int64 amount of scale 0. */
export function quantityOfInt(n: bigint): CelQuantity {
  return new CelQuantity(n, 0, true);
}
