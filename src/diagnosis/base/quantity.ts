/**
 * Kubernetes resource quantities ("500m", "1", "2Gi", "1e3", "100M", ".5") parsed
 * exactly (BigInt arithmetic), then rounded the way the scheduler rounds them:
 * CPU in millicores (`MilliValue()`, rounded up) and everything else in base units
 * (`Value()`, rounded up). Floating point never touches the comparison path, so
 * "1.1" cpu is exactly 1100m and not 1100.0000000000002.
 */
import type { Quantity } from '../k8s.js';

/** value = sign * digits * 10^exp10 * 2^exp2, exactly. */
interface ExactQuantity {
  negative: boolean;
  digits: bigint;
  exp10: number;
  exp2: number;
}

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const NUMBER = /^([+-]?)(\d+\.?\d*|\.\d+)(.*)$/;

/** Parses a quantity, or returns undefined when it is not one. */
export function parseExact(input: Quantity): ExactQuantity | undefined {
  const text = typeof input === 'number' ? numberToText(input) : input.trim();
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  const [, sign = '', numeric = '', suffix = ''] = match;
  const [whole = '', fraction = ''] = numeric.split('.');
  const digits = BigInt(`${whole}${fraction}` || '0');
  let exp10 = -fraction.length;
  let exp2 = 0;
  if (Object.hasOwn(BINARY, suffix)) {
    exp2 = BINARY[suffix] ?? 0;
  } else if (Object.hasOwn(DECIMAL, suffix)) {
    exp10 += DECIMAL[suffix] ?? 0;
  } else {
    const exponent = /^[eE]([+-]?\d+)$/.exec(suffix);
    if (!exponent?.[1]) return undefined;
    exp10 += Number.parseInt(exponent[1], 10);
  }
  return { negative: sign === '-', digits, exp10, exp2 };
}

function numberToText(value: number): string {
  // String(1e21) is "1e+21", which the grammar accepts after the sign fix below.
  return String(value).replace('e+', 'e');
}

/** ceil(|q| * 10^scale10) with the sign applied afterwards (inf.Dec RoundUp: away from zero). */
function scaledCeil(q: ExactQuantity, scale10: number): number {
  const exp = q.exp10 + scale10;
  let numerator = q.digits * 2n ** BigInt(q.exp2);
  let denominator = 1n;
  if (exp >= 0) numerator *= 10n ** BigInt(exp);
  else denominator = 10n ** BigInt(-exp);
  const quotient = (numerator + denominator - 1n) / denominator;
  const result = Number(quotient);
  return q.negative ? -result : result;
}

/** True when the input is a well-formed quantity. */
export function isQuantity(input: Quantity): boolean {
  return parseExact(input) !== undefined;
}

/**
 * The quantity in base units as a float, for display and ratios (not for fit checks).
 * Throws on malformed input.
 *
 * @example parseQuantity('500m') // 0.5
 */
export function parseQuantity(input: Quantity): number {
  const q = parseExact(input);
  if (!q) throw new Error(`invalid quantity "${String(input)}"`);
  const value = Number(q.digits) * 10 ** q.exp10 * 2 ** q.exp2;
  return q.negative ? -value : value;
}

/** `Value()`: base units rounded up to an integer. @example quantityValue('100M') // 100000000 */
export function quantityValue(input: Quantity): number {
  const q = parseExact(input);
  if (!q) throw new Error(`invalid quantity "${String(input)}"`);
  return scaledCeil(q, 0);
}

/** `MilliValue()`: thousandths rounded up to an integer. @example quantityMilli('1.1') // 1100 */
export function quantityMilli(input: Quantity): number {
  const q = parseExact(input);
  if (!q) throw new Error(`invalid quantity "${String(input)}"`);
  return scaledCeil(q, 3);
}

/**
 * The amount the scheduler compares for a resource: millicores for "cpu", rounded-up
 * base units for everything else (memory bytes, GPUs, hugepages, ephemeral-storage).
 */
export function schedulerAmount(resource: string, input: Quantity): number {
  const milli = resource === 'cpu';
  // The same few strings ("1", "500m", "1Gi") repeat across every pod and node.
  const key = `${milli ? 'm' : 'v'}${typeof input}${String(input)}`;
  const cached = amountCache.get(key);
  if (cached !== undefined) return cached;
  const amount = milli ? quantityMilli(input) : quantityValue(input);
  if (amountCache.size >= AMOUNT_CACHE_LIMIT) amountCache.clear();
  amountCache.set(key, amount);
  return amount;
}

const AMOUNT_CACHE_LIMIT = 10_000;
const amountCache = new Map<string, number>();

/**
 * Formats a scheduler amount back into a readable quantity: "500m"/"2" for cpu,
 * "2Gi"/"1500Mi"/"1234" for byte resources, plain integers otherwise.
 */
export function formatAmount(resource: string, amount: number): string {
  if (resource === 'cpu') return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  if (isByteResource(resource)) {
    for (const [suffix, shift] of [
      ['Ti', 40],
      ['Gi', 30],
      ['Mi', 20],
      ['Ki', 10],
    ] as const) {
      const unit = 2 ** shift;
      if (amount !== 0 && amount % unit === 0) return `${amount / unit}${suffix}`;
    }
    if (amount >= 2 ** 20) return `${Math.round((amount / 2 ** 20) * 10) / 10}Mi`;
  }
  return String(amount);
}

function isByteResource(resource: string): boolean {
  return resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-');
}
