/**
 * DRA device selectors in CEL, on a device as the NVIDIA DRA driver publishes it.
 * Whatever cannot be evaluated is 'unknown', never 'match'.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpression, evaluateSelectors } from '../../src/diagnosis/dra/cel.js';
import { devicesOnNode, matchDevice } from '../../src/diagnosis/dra/devices.js';
import type { Device } from '../../src/diagnosis/k8s.js';
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
    ['a missing attribute', `device.attributes["${DRIVER}"].nvlinkDomain == "a"`],
    ['an unknown function', `device.attributes["${DRIVER}"].productName.startsWithX("NVIDIA")`],
    ['a syntax error', 'device.driver == '],
    ['a non-bool result', 'device.driver'],
    ['an unknown domain', 'device.attributes["dra.example.com"].model == "x"'],
  ])('%s is unknown, never a match', (_name, expression) => {
    const result = evaluateExpression(expression, DRIVER, device);
    expect(result.result).toBe('unknown');
  });

  it('selectors are ANDed: one no-match settles it even beside an unknown one', () => {
    const result = evaluateSelectors(
      [
        { cel: { expression: 'device.attributes["x.example.com"].y == 1' } },
        { cel: { expression: `device.driver == "other.example.com"` } },
      ],
      DRIVER,
      device,
    );
    expect(result.result).toBe('no-match');
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
