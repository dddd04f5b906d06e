/**
 * resource.Quantity as the API server prints it in quota messages and status
 * (k8s.io/apimachinery/pkg/api/resource/quantity.go): exact values (kept in nano units),
 * the format of the quantity parsed (BinarySI for Ki/Mi/..., DecimalExponent for
 * "1e3", else DecimalSI), sums keeping the first operand's format unless it is zero
 * (Quantity.Add), and
 * String() in canonical form (CanonicalizeBytes): DecimalSI with the largest exponent
 * (multiple of 3) that leaves an integer mantissa ("1500m", "2", "1k"); BinarySI with
 * the largest power of 1024 that divides the value ("1536Mi", "2Gi"), but as DecimalSI
 * below 1024 or when the value is not a whole number.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  nano: bigint;
  format: QuantityFormat;
}

const NANO = 1_000_000_000n;
const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX = new Map(Object.entries(DECIMAL).map(([s, e]) => [e, s]));

export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

/** Thrown for text that is not a quantity (the API server would have refused the object). */
export class QuantityError extends Error {}

function pow10(exp: number): bigint {
  return 10n ** BigInt(exp);
}

/** Parses "500m", "1.5", "2Gi", "1e3" (rounding up to a nano unit, as the API server keeps at most nano precision). */
export function parseQuantity(input: string | number): Quantity {
  const text = String(input).trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE])([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new QuantityError(`quantity ${JSON.stringify(text)}`);
  const [, sign = '', whole = '', fraction = '', e, expText, suffix = ''] = m;
  const digits = BigInt(`${whole}${fraction}` || '0');
  let scale = -fraction.length;
  let format: QuantityFormat = 'DecimalSI';
  let multiplier = 1n;
  if (e) {
    format = 'DecimalExponent';
    scale += Number(expText);
  } else if (suffix in BINARY) {
    format = 'BinarySI';
    multiplier = BINARY[suffix] ?? 1n;
  } else scale += DECIMAL[suffix] ?? 0;
  // value = digits * multiplier * 10^scale, in nano units: * 10^(scale + 9), rounded up.
  const shift = scale + 9;
  let nano: bigint;
  if (shift >= 0) nano = digits * multiplier * pow10(shift);
  else {
    const denominator = pow10(-shift);
    const numerator = digits * multiplier;
    nano = numerator / denominator + (numerator % denominator === 0n ? 0n : 1n);
  }
  return { nano: sign === '-' ? -nano : nano, format };
}

/** Quantity.Add: the sum, in the first operand's format (the second's when the first is zero). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n ? b.format : a.format };
}

export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

function decimalString(nano: bigint, exponentForm: boolean): string {
  const negative = nano < 0n;
  let mantissa = negative ? -nano : nano;
  let exponent = -9;
  while (mantissa % 1000n === 0n && exponent < 18) {
    mantissa /= 1000n;
    exponent += 3;
  }
  const suffix = exponentForm ? (exponent === 0 ? '' : `e${exponent}`) : (DECIMAL_SUFFIX.get(exponent) ?? '');
  return `${negative ? '-' : ''}${mantissa}${suffix}`;
}

/** Quantity.String(): the canonical form (see the module comment). */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  if (q.format === 'BinarySI') {
    const whole = q.nano % NANO === 0n;
    const value = q.nano / NANO;
    if (whole && (value >= 1024n || value <= -1024n)) {
      let mantissa = value < 0n ? -value : value;
      let index = 0;
      const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
      while (mantissa % 1024n === 0n && index < suffixes.length - 1) {
        mantissa /= 1024n;
        index += 1;
      }
      return `${value < 0n ? '-' : ''}${mantissa}${suffixes[index] ?? ''}`;
    }
    return decimalString(q.nano, false);
  }
  return decimalString(q.nano, q.format === 'DecimalExponent');
}

/** A count (pods=1, count/pods=1) as resource.NewQuantity(n, DecimalSI) makes it. */
export function countQuantity(n: number): Quantity {
  return { nano: BigInt(n) * NANO, format: 'DecimalSI' };
}

/** A resource list as "a=1,b=2Gi", keys sorted (resourcequota admission prettyPrint). */
export function prettyPrint(list: ReadonlyMap<string, Quantity>): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k) ?? ZERO)}`)
    .join(',');
}
