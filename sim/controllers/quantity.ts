/** Kubernetes resource quantities as numbers: cpu in millicores, everything else in base units. */

const SUFFIX: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** Parses a quantity ("100m", "1.5", "128Mi", "1e3") to a number of base units. */
export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?\d+)?)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) return 0;
  const [, num = '0', suffix = ''] = m;
  return Number(num) * (SUFFIX[suffix] ?? 1);
}

/** Amount in the unit the scheduler compares: millicores for cpu, base units otherwise. */
export function schedulingAmount(resource: string, q: string | number | undefined): number {
  const v = parseQuantity(q);
  return resource === 'cpu' ? Math.ceil(v * 1000 - 1e-9) : v;
}
