/**
 * The Kubernetes CEL `semver` library (k8s.io/apiserver/pkg/cel/library/semverlib.go)
 * over github.com/blang/semver/v4: strict parsing (`semver.Parse`: MAJOR.MINOR.PATCH,
 * no leading zeroes, pre-release and build identifiers checked), the optional
 * normalization of `semver(s, true)` / `isSemver(s, true)` (`normalizeAndParse`: a
 * leading "v" dropped, leading zeroes dropped, missing minor and patch filled with 0),
 * and `Compare` (build metadata ignored, a pre-release sorts before its release,
 * numeric identifiers below alphanumeric ones). Device attributes of type `version`
 * are parsed the same strict way by the DRA CEL environment.
 */
import { CelRuntimeError } from './cel-quantity.js';

type PreRelease = { num: bigint } | { str: string };

export class CelSemver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly PreRelease[],
  ) {}
}

const UINT64_MAX = 2n ** 64n - 1n;
const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const leadingZero = (s: string): boolean => s.length > 1 && s.startsWith('0');

function uint(part: string, what: string): bigint {
  if (!NUMBERS.test(part))
    throw new CelRuntimeError(`Invalid character(s) found in ${what} number "${part}"`);
  if (leadingZero(part))
    throw new CelRuntimeError(`${what} number must not contain leading zeroes "${part}"`);
  if (part === '') throw new CelRuntimeError(`invalid ${what} number ""`);
  const value = BigInt(part);
  if (value > UINT64_MAX) throw new CelRuntimeError(`${what} number out of range "${part}"`);
  return value;
}

/** semver.Parse. */
export function parseSemver(s: string): CelSemver {
  if (s.length === 0) throw new CelRuntimeError('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new CelRuntimeError('No Major.Minor.Patch elements found');
  const major = uint(parts[0] ?? '', 'Major');
  const minor = uint(parts[1] ?? '', 'Minor');
  let patchStr = parts[2] ?? '';
  const buildAt = patchStr.indexOf('+');
  const build = buildAt < 0 ? [] : patchStr.slice(buildAt + 1).split('.');
  if (buildAt >= 0) patchStr = patchStr.slice(0, buildAt);
  const preAt = patchStr.indexOf('-');
  const pre = preAt < 0 ? [] : patchStr.slice(preAt + 1).split('.');
  if (preAt >= 0) patchStr = patchStr.slice(0, preAt);
  const patch = uint(patchStr, 'Patch');
  const preRelease = pre.map((p): PreRelease => {
    if (p.length === 0) throw new CelRuntimeError('Prerelease is empty');
    if (NUMBERS.test(p)) {
      if (leadingZero(p))
        throw new CelRuntimeError(`Numeric PreRelease version must not contain leading zeroes "${p}"`);
      return { num: uint(p, 'PreRelease') };
    }
    if (ALPHANUM.test(p)) return { str: p };
    throw new CelRuntimeError(`Invalid character(s) found in prerelease "${p}"`);
  });
  for (const b of build) {
    if (b.length === 0) throw new CelRuntimeError('Build meta data is empty');
    if (!ALPHANUM.test(b)) throw new CelRuntimeError(`Invalid character(s) found in build meta data "${b}"`);
  }
  return new CelSemver(major, minor, patch, preRelease);
}

/** normalizeAndParse. */
export function parseSemverNormalized(input: string): CelSemver {
  const s = input.startsWith('v') ? input.slice(1) : input;
  const parts = splitN(s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    const trimmed = p.replace(/^0+/, '');
    return trimmed.length === 0 || !/^[0-9]/.test(trimmed) ? `0${trimmed}` : trimmed;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] ?? '')) {
      throw new CelRuntimeError('short version cannot contain PreRelease/Build meta data');
    }
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

export function isSemver(s: string, normalize = false): boolean {
  try {
    if (normalize) parseSemverNormalized(s);
    else parseSemver(s);
    return true;
  } catch {
    return false;
  }
}

const cmp = (a: bigint | string, b: bigint | string): number => (a === b ? 0 : a > b ? 1 : -1);

function comparePre(a: PreRelease, b: PreRelease): number {
  if ('num' in a && 'num' in b) return cmp(a.num, b.num);
  if ('str' in a && 'str' in b) return cmp(a.str, b.str);
  return 'num' in a ? -1 : 1;
}

/** Version.Compare. */
export function compareSemver(a: CelSemver, b: CelSemver): number {
  const core = cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch);
  if (core !== 0) return core;
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = comparePre(a.pre[i] as PreRelease, b.pre[i] as PreRelease);
    if (c !== 0) return c;
  }
  return cmp(BigInt(a.pre.length), BigInt(b.pre.length));
}

/** strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  const parts = s.split(sep);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}
