/**
 * DRA device selectors in CEL, on a device as the NVIDIA DRA driver publishes it.
 * Whatever cannot be evaluated is 'unknown', never 'match'.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '@marcbachmann/cel-js';
import { evaluateExpression, evaluateSelectors } from '../../src/diagnosis/dra/cel.js';
import { rewriteSelector } from '../../src/diagnosis/dra/cel-rewrite.js';
import { devicesOnNode, matchDevice } from '../../src/diagnosis/dra/devices.js';
import type { Device } from '../../src/diagnosis/k8s-dra.js';
import { A100, DRIVER, deviceClass, gpuSlice } from '../support/dra-builders.js';
import { makeNode } from '../support/k8s-builders.js';

const slice = gpuSlice('gpu-node-1', [
  { name: 'gpu-0' },
  { name: 'gpu-1', productName: 'NVIDIA H100 80GB HBM3', memory: '80Gi' },
]);
const [a100, h100] = slice.spec.devices ?? [];
const device = a100 as Device;

describe('evaluateExpression', () => {
  it.each([
    [`device.driver == "${DRIVER}" && device.attributes["${DRIVER}"].productName == "${A100}"`, 'match'],
    [`device.attributes["${DRIVER}"].productName == "NVIDIA H100 80GB HBM3"`, 'no-match'],
    [`device.capacity["${DRIVER}"].memory.compareTo(quantity("40Gi")) >= 0`, 'match'],
    [`device.capacity["${DRIVER}"].memory.compareTo(quantity("80Gi")) >= 0`, 'no-match'],
    [`device.capacity["${DRIVER}"].memory.isGreaterThan(quantity("16Gi"))`, 'match'],
    [`device.attributes["${DRIVER}"].index == 0`, 'match'],
    [`device.attributes["${DRIVER}"].driverVersion.isGreaterThan(semver("535.0.0"))`, 'match'],
    [`device.attributes["${DRIVER}"].type == "gpu"`, 'match'],
  ])('%s is %s', (expression, result) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe(result);
  });

  it.each([
    ['an unknown function', `device.attributes["${DRIVER}"].productName.startsWithX("NVIDIA")`],
    ['a syntax error', 'device.driver == '],
    ['a non-bool result', 'device.driver'],
    // Upstream q.sign() does not compile: sign is a global function (cel.Overload).
    ['sign as a method', 'quantity("1").sign() == 1'],
    // Newer than what this environment models: never counted as a match.
    ['quantity mul', 'quantity("50k").mul(2) == quantity("100000")'],
    ['has() on a domain itself', `has(device.attributes.dra)`],
  ])('%s is unknown, never a match', (_name, expression) => {
    const result = evaluateExpression(expression, DRIVER, device);
    expect(result.result).toBe('unknown');
  });

  it.each([
    // Missing name in a known domain, or in an unknown domain (an empty map upstream).
    ['a missing attribute', `device.attributes["${DRIVER}"].nvlinkDomain == "a"`],
    ['an attribute of an unknown domain', 'device.attributes["dra.example.com"].model == "x"'],
    ['a capacity of an unknown domain', 'device.capacity["dra.example.com"].memory.isInteger()'],
    ['a missing attribute by index', `device.attributes["${DRIVER}"]["nvlinkDomain"] == "a"`],
    ['an invalid quantity', 'quantity("10Mo").isInteger()'],
    ['a quantity suffix', 'quantity("10Mm").isInteger()'],
    ['asInteger out of int64', 'quantity("9999999999999999999999999999999999999G").asInteger() > 0'],
    ['an invalid version', 'semver("v1.0").major() == 1'],
  ])('%s is a CEL runtime error, as upstream: never a match', (_name, expression) => {
    const result = evaluateExpression(expression, DRIVER, device);
    expect(result.result).toBe('error');
  });

  it('selectors run in order: an error ends the evaluation, as the allocator stops there', () => {
    const error = { cel: { expression: 'device.attributes["x.example.com"].y == 1' } };
    const other = { cel: { expression: `device.driver == "other.example.com"` } };
    const unknown = { cel: { expression: 'device.driver.startsWithX("a")' } };
    const failed = evaluateSelectors([error, other], DRIVER, device);
    expect(failed).toEqual({
      result: 'error',
      why: expect.stringContaining('selector #0: CEL runtime error'),
    });
    expect(evaluateSelectors([other, error], DRIVER, device).result).toBe('no-match');
    // One no-match settles it even beside a selector this analysis cannot evaluate.
    expect(evaluateSelectors([unknown, other], DRIVER, device).result).toBe('no-match');
  });
});

describe('the DRA CEL environment (k8s.io/dynamic-resource-allocation/cel/compile.go)', () => {
  it.each([
    // has() on an attribute map reached by index: presence of the key.
    [`has(device.attributes["${DRIVER}"].productName)`, 'match'],
    [`has(device.attributes["${DRIVER}"].nvlinkDomain)`, 'no-match'],
    [
      `!has(device.attributes["${DRIVER}"].nvlinkDomain) || device.attributes["${DRIVER}"].nvlinkDomain == 1`,
      'match',
    ],
    [
      `has(device.capacity["${DRIVER}"].memory) && device.capacity["${DRIVER}"].memory.isGreaterThan(quantity("1Gi"))`,
      'match',
    ],
    // An unknown domain is an empty map: nothing is present in it.
    ['has(device.attributes["dra.example.com"].model)', 'no-match'],
    ['size(device.attributes["dra.example.com"]) == 0', 'match'],
    // ... but the domain itself is not a key of device.attributes.
    ['"dra.example.com" in device.attributes', 'no-match'],
    [`"${DRIVER}" in device.attributes`, 'match'],
    [
      `cel.bind(gpu, device.attributes["${DRIVER}"], gpu.productName == "${A100}" && has(gpu.index))`,
      'match',
    ],
    ['device.allowMultipleAllocations == false', 'match'],
    [`device.attributes["${DRIVER}"].?nvlinkDomain.orValue("none") == "none"`, 'match'],
  ])('%s is %s', (expression, result) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe(result);
  });

  it('device.allowMultipleAllocations reads the device field', () => {
    const shared: Device = { ...device, allowMultipleAllocations: true };
    expect(evaluateExpression('device.allowMultipleAllocations', DRIVER, shared).result).toBe('match');
  });

  it('a version attribute that is not semver fails every selector on the device, as upstream', () => {
    const bad: Device = {
      ...device,
      attributes: { ...device.attributes, driverVersion: { version: '550.127' } },
    };
    expect(evaluateExpression('device.driver != ""', DRIVER, bad)).toEqual({
      result: 'error',
      why: expect.stringContaining('attribute driverVersion: parse semantic version'),
    });
  });

  it('an attribute of a kind not read here makes the device unknown, never a match', () => {
    const listed = {
      ...device,
      attributes: { ...device.attributes, pcieRoots: { strings: ['pci0000:00'] } },
    } as unknown as Device;
    expect(evaluateExpression('device.driver != ""', DRIVER, listed).result).toBe('unknown');
  });
});

describe('strings and regular expressions as cel-go evaluates them (cel-strings.ts)', () => {
  const name = `device.attributes["${DRIVER}"].productName`; // "NVIDIA A100-SXM4-40GB"

  it.each([
    // RE2 syntax JavaScript reads otherwise: POSIX classes, \A \z, \pL, \Q…\E, flags.
    [`${name}.matches("^NVIDIA [[:alnum:]]+-")`, 'match'],
    ['"d]".matches("^[[:digit:]]$")', 'no-match'],
    [`${name}.matches("\\\\AN")`, 'match'],
    [`${name}.matches("40GB\\\\z")`, 'match'],
    [`${name}.matches("^\\\\pL+ \\\\pL")`, 'match'],
    [`${name}.matches("\\\\QA100-SXM4\\\\E")`, 'match'],
    [`${name}.matches("(?i)^nvidia a100")`, 'match'],
    // Go's "." is any character but \n; its \s has no \v.
    ['"a\\u2028b".matches("^a.b$")', 'match'],
    ['"\\u000b".matches("^\\\\s$")', 'no-match'],
    // The global form, and the Kubernetes regex library.
    [`matches(${name}, "^NVIDIA")`, 'match'],
    [`${name}.find("[0-9]+GB") == "40GB"`, 'match'],
    [`${name}.findAll("[0-9]+") == ["100", "4", "40"]`, 'match'],
    [`${name}.findAll("[0-9]+", 2) == ["100", "4"]`, 'match'],
  ])('%s is %s, as in Kubernetes', (expression, result) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe(result);
  });

  it.each([
    ['lookahead', `${name}.matches("(?=NVIDIA)")`],
    ['negative lookbehind', `${name}.matches("(?<!x)NVIDIA")`],
    ['a backreference', `${name}.matches("(A)\\\\d+-SXM4-4\\\\1")`],
    ['a possessive quantifier', `${name}.matches("N++")`],
  ])('%s (JavaScript only, not RE2) is unknown, never a match', (_name, expression) => {
    expect(evaluateExpression(expression, DRIVER, device)).toEqual({
      result: 'unknown',
      why: expect.stringContaining('is not valid RE2'),
    });
  });

  it('a pattern built per device past 1,024 characters is unknown, not compiled once per device', () => {
    // The attribute makes the pattern differ per device, so no cache helps: before, 5,000
    // devices of this cost 26 s of the event loop.
    const long = `${Array.from({ length: 400 }, (_, i) => `m${i}`).join('|')}|`;
    const expression = `${name}.matches("${long}" + ${name})`;
    const results = Array.from({ length: 200 }, (_, i) =>
      evaluateExpression(expression, DRIVER, {
        ...device,
        attributes: { ...device.attributes, productName: { string: `A100-${i}` } },
      }),
    );
    expect(results.every((r) => r.result === 'unknown')).toBe(true);
    expect(results[0]).toEqual({
      result: 'unknown',
      why: expect.stringMatching(/has \d+ characters, more than the 1024 this evaluator compiles/),
    });
    // The finding quotes the pattern cut to 80 characters, not all of it.
    expect((results[0] as { why: string }).why.length).toBeLessThan(300);
  });

  it.each([
    // Positions and lengths count code points, not UTF-16 units.
    ['"😀a".indexOf("a") == 1', 'match'],
    ['"😀abc".substring(1) == "abc"', 'match'],
    ['"😀abc".substring(1, 2) == "a"', 'match'],
    ['"😀abc".lastIndexOf("c") == 3', 'match'],
    ['"😀abc".lastIndexOf("a", 2) == 1', 'match'],
    ['"😀abc".indexOf("c", 2) == 3', 'match'],
    ['"😀abc".charAt(1) == "a"', 'match'],
    ['"😀ab".split("") == ["😀", "a", "b"]', 'match'],
    ['"😀ab".split("", 2) == ["😀", "ab"]', 'match'],
    ['"😀abc".matches("^.abc$")', 'match'],
    ['"😀abc".substring(size("😀abc") - 1) == "c"', 'match'],
    // ASCII only, and Go's TrimSpace.
    ['"ÀB".lowerAscii() == "Àb"', 'match'],
    ['"àb".upperAscii() == "àB"', 'match'],
    ['"\\u0085x\\ufeff".trim() == "x\\ufeff"', 'match'],
  ])('%s is %s, as in cel-go', (expression, result) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe(result);
  });

  it.each([
    // An index out of range: an error upstream, not settled here.
    ['"😀abc".substring(5) == ""'],
    ['"😀ab".indexOf("b", 3) == 3'],
    // Ordering with a character outside the BMP (JavaScript orders by UTF-16 units).
    ['"\\uff21" < "😀"'],
  ])('%s is unknown, never a settled answer', (expression) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe('unknown');
  });

  it('an attribute string outside the BMP makes orderings unknown', () => {
    const emoji: Device = { ...device, attributes: { ...device.attributes, label: { string: '😀' } } };
    expect(evaluateExpression(`device.attributes["${DRIVER}"].label > "\\uff21"`, DRIVER, emoji).result).toBe(
      'unknown',
    );
    expect(
      evaluateExpression(`device.attributes["${DRIVER}"].label.indexOf("😀") == 0`, DRIVER, emoji).result,
    ).toBe('match');
  });
});

describe('integers beyond 2^53 as read', () => {
  // 2^53 + 1 as the API server sends it, read as 2^53: the exact value is lost before
  // any selector runs.
  const read = JSON.parse('{"int": 9007199254740993}') as { int: number };
  const big: Device = { ...device, attributes: { ...device.attributes, serial: read } };
  const serial = `device.attributes["${DRIVER}"].serial`;

  it.each([[`${serial} == 9007199254740992`], [`${serial} != 9007199254740992`], [`${serial} > 0`]])(
    '%s is unknown, naming the attribute',
    (expression) => {
      expect(evaluateExpression(expression, DRIVER, big)).toEqual({
        result: 'unknown',
        why: expect.stringContaining('attribute serial is the integer 9007199254740992 as read, beyond 2^53'),
      });
    },
  );

  it('the other attributes of the device stay exact, and a result that does not need the value too', () => {
    expect(evaluateExpression(`${serial} == 1`, DRIVER, big).result).toBe('unknown');
    expect(evaluateExpression(`device.attributes["${DRIVER}"].index == 0`, DRIVER, big).result).toBe('match');
    expect(evaluateExpression(`${serial} == 1 || true`, DRIVER, big).result).toBe('match');
    expect(
      evaluateExpression(`"serial" in device.attributes["${DRIVER}"].map(k, k)`, DRIVER, big).result,
    ).toBe('match');
  });

  it('a capacity given as a number beyond 2^53 is unknown', () => {
    const huge = {
      ...device,
      capacity: { ...device.capacity, counter: JSON.parse('{"value": 9007199254740993}') as unknown },
    } as unknown as Device;
    expect(evaluateExpression('device.driver != ""', DRIVER, huge).result).toBe('unknown');
  });
});

describe('rewriteSelector', () => {
  const rewrite = (expression: string): string => rewriteSelector(expression, parse(expression).ast);

  it('leaves text it does not rewrite exactly as it was, parentheses included', () => {
    for (const expression of [
      '(device.driver == "a" || device.driver == "b") && !(device.allowMultipleAllocations)',
      ' ( (quantity("1") == quantity("1")) ) ',
      'cel.bind(x, [1, 2], x.exists(i, i > 1) ? (true) : false)',
    ]) {
      expect(rewrite(expression)).toBe(expression);
    }
  });

  it('routes domain lookups through the empty-map default and has() on them through optional selection', () => {
    expect(
      rewrite(
        'has(device.attributes["d.example.com"].x) && (device.capacity["d.example.com"].m.isInteger())',
      ),
    ).toBe(
      '(__dra_domain(device.attributes, "d.example.com")).?x.hasValue() && (__dra_domain(device.capacity, "d.example.com").m.isInteger())',
    );
    expect(rewrite('"d.example.com" in device.attributes')).toBe('"d.example.com" in device.attributes');
  });

  it("renames the string methods cel-go defines otherwise to this analysis' own, changing only the name", () => {
    expect(rewrite('("a" + "b").indexOf( "b" ) == 1 && matches ("ab", "^a") && "x".trim() == "x"')).toBe(
      '("a" + "b").__rd_indexOf( "b" ) == 1 && __rd_matches ("ab", "^a") && "x".__rd_trim() == "x"',
    );
    expect(rewrite('"a".matches("(a)").matches("x")')).toBe('"a".__rd_matches("(a)").__rd_matches("x")');
  });
});

/** Upstream k8s.io/apiserver/pkg/cel/library/quantity_test.go, as selectors (each must be true). */
describe('the quantity library', () => {
  it.each([
    'quantity("12Mi") == quantity("12Mi")',
    'isQuantity("20")',
    'isQuantity("20M")',
    'isQuantity("20Mi")',
    '!isQuantity("20Mo")',
    '!isQuantity("10Mm")',
    'quantity("200M") == quantity("200M")',
    'quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")',
    'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
    '!(quantity("200M") == quantity("0.3G"))',
    'quantity("50M").isLessThan(quantity("50Mi"))',
    'quantity("50M").isLessThan(quantity("100M"))',
    '!quantity("100M").isLessThan(quantity("50M"))',
    'quantity("50Mi").isGreaterThan(quantity("50M"))',
    'quantity("150Mi").isGreaterThan(quantity("100Mi"))',
    '!quantity("50M").isGreaterThan(quantity("100M"))',
    'quantity("200M").compareTo(quantity("0.2G")) == 0',
    'quantity("50M").compareTo(quantity("50Mi")) == -1',
    'quantity("50Mi").compareTo(quantity("50M")) == 1',
    'quantity("50k").add(quantity("20")) == quantity("50.02k")',
    '!quantity("50k").add(20).isLessThan(quantity("50020"))',
    'quantity("50k").sub(quantity("20")) == quantity("49.98k")',
    'quantity("50k").sub(20) == quantity("49980")',
    'quantity("50k").add(20).sub(quantity("100k")).asInteger() == -49980',
    'quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() == 20',
    'quantity("50k").asInteger() == 50000',
    '!quantity("9999999999999999999999999999999999999G").isInteger()',
    'quantity("50").isInteger()',
    'quantity("50.703k").asApproximateFloat() == 50703.0',
    // The documented examples of the library and sign, a global function.
    'quantity("50000000G").isInteger()',
    'sign(quantity("-50k")) == -1 && sign(quantity("0")) == 0 && sign(quantity("1m")) == 1',
    // resource.Quantity.AsInt64: only an int64 amount of non-negative scale converts.
    '!quantity("1000m").isInteger() && !quantity("1.0").isInteger() && !quantity("1.5Gi").isInteger()',
    'quantity("1Gi").isInteger() && quantity("1Gi").asInteger() == 1073741824',
  ])('%s', (expression) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe('match');
  });
});

/** Upstream k8s.io/apiserver/pkg/cel/library/semver_test.go, as selectors (each must be true). */
describe('the semver library', () => {
  it.each([
    'semver("1.2.3") == semver("1.2.3")',
    'isSemver("1.2.3-beta.1+build.1")',
    '!isSemver("")',
    '!isSemver("v1.0.0")',
    '!isSemver(" 1.0.0")',
    '!isSemver("1. 0.0")',
    '!isSemver("1.0.0 ")',
    '!isSemver("01.01.01")',
    '!isSemver("1")',
    '!isSemver("1.1")',
    '!isSemver("", true)',
    '!isSemver(" 1.0.0", true)',
    '!isSemver("1. 0.0", true)',
    '!isSemver("1.0.0 ", true)',
    'isSemver("v1.0.0", true)',
    'isSemver("01.01.01", true)',
    'isSemver("1", true)',
    'isSemver("1.1", true)',
    'semver("v01.01", true) == semver("1.1.0")',
    '!(semver("1.2.3") == semver("1.0.0"))',
    'semver("1.0.0").isLessThan(semver("1.2.3"))',
    '!semver("1.0.0").isLessThan(semver("1.0.0"))',
    'semver("1.2.3").isGreaterThan(semver("1.0.0"))',
    '!semver("1.0.0").isGreaterThan(semver("1.0.0"))',
    'semver("1.2.3").compareTo(semver("1.2.3")) == 0',
    'semver("1.0.0").compareTo(semver("1.2.3")) == -1',
    'semver("1.2.3").compareTo(semver("1.0.0")) == 1',
    'semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3',
    // blang/semver Compare: a pre-release sorts first, numeric before alphanumeric, build ignored.
    'semver("1.0.0-alpha").isLessThan(semver("1.0.0"))',
    'semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta"))',
    'semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1"))',
    'semver("1.0.0+a") == semver("1.0.0+b")',
    `device.attributes["${DRIVER}"].driverVersion.minor() == 127`,
  ])('%s', (expression) => {
    expect(evaluateExpression(expression, DRIVER, device).result).toBe('match');
  });
});

describe('devices on a node and matching', () => {
  it('takes the devices of the node-local pool and matches class and request selectors', () => {
    const { devices, incompletePools } = devicesOnNode([slice], makeNode('gpu-node-1'));
    expect(devices.map((d) => d.key)).toEqual([`${DRIVER}/gpu-node-1/gpu-0`, `${DRIVER}/gpu-node-1/gpu-1`]);
    expect(incompletePools).toEqual([]);
    expect(devicesOnNode([slice], makeNode('gpu-node-2')).devices).toEqual([]);
    const big = {
      deviceClassName: DRIVER,
      selectors: [
        { cel: { expression: `device.capacity["${DRIVER}"].memory.compareTo(quantity("80Gi")) >= 0` } },
      ],
    };
    const [first, second] = devices;
    expect(first && matchDevice(big, [deviceClass()], true, first).result).toBe('no-match');
    expect(second && matchDevice(big, [deviceClass()], true, second).result).toBe('match');
    expect(h100?.name).toBe('gpu-1');
  });

  it('only the newest pool generation counts, and a pool missing slices is reported', () => {
    const old = structuredClone(slice);
    old.spec.pool.generation = 0;
    old.spec.devices = [{ name: 'gpu-stale' }];
    const partial = structuredClone(slice);
    partial.spec.pool.resourceSliceCount = 2;
    const { devices, incompletePools } = devicesOnNode([old, partial], makeNode('gpu-node-1'));
    expect(devices.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1']);
    expect(incompletePools).toEqual([`${DRIVER}/gpu-node-1`]);
  });

  it('the devices of a pool the allocator skips are marked: slices not as many as announced, a device named twice', () => {
    const complete = devicesOnNode([slice], makeNode('gpu-node-1')).devices;
    expect(complete.every((d) => d.unusable === undefined)).toBe(true);
    const extra = structuredClone(slice);
    extra.metadata.name = 'extra';
    extra.spec.devices = [{ name: 'gpu-2' }];
    const tooMany = devicesOnNode([slice, extra], makeNode('gpu-node-1'));
    expect(tooMany.incompletePools).toEqual([`${DRIVER}/gpu-node-1`]);
    expect(tooMany.devices.map((d) => d.unusable)).toEqual([
      expect.stringContaining('2 of its newest generation'),
      expect.stringContaining('2 of its newest generation'),
      expect.stringContaining('2 of its newest generation'),
    ]);
    const twice = structuredClone(extra);
    twice.spec.devices = [{ name: 'gpu-0' }];
    const pool = [structuredClone(slice), twice];
    for (const s of pool) s.spec.pool.resourceSliceCount = 2;
    const invalid = devicesOnNode(pool, makeNode('gpu-node-1')).devices;
    expect(invalid[0]?.unusable).toContain('names device gpu-0 twice');
  });

  it('a device taint the request does not tolerate keeps the device out; a toleration lets it in', () => {
    const tainted = structuredClone(slice);
    const first = tainted.spec.devices?.[0];
    if (first) first.taints = [{ key: 'gpu.nvidia.com/xid', value: '79', effect: 'NoSchedule' }];
    const [dev] = devicesOnNode([tainted], makeNode('gpu-node-1')).devices;
    if (!dev) throw new Error('no device');
    expect(matchDevice({ deviceClassName: DRIVER }, [deviceClass()], true, dev).result).toBe('tainted');
    expect(
      matchDevice(
        { deviceClassName: DRIVER, tolerations: [{ key: 'gpu.nvidia.com/xid', operator: 'Exists' }] },
        [deviceClass()],
        true,
        dev,
      ).result,
    ).toBe('match');
  });

  it('a class that was not read is unknown; one known absent matches nothing', () => {
    const [dev] = devicesOnNode([slice], makeNode('gpu-node-1')).devices;
    if (!dev) throw new Error('no device');
    expect(matchDevice({ deviceClassName: 'missing' }, [], false, dev).result).toBe('unknown');
    expect(matchDevice({ deviceClassName: 'missing' }, [], true, dev).result).toBe('no-match');
  });
});
