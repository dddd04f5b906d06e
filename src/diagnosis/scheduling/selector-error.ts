/**
 * What to change when the scheduler's DynamicResources filter stops at a device
 * selector with a CEL runtime error (scheduling-category.ts, `selector-error`): shared
 * by the engine's Unschedulable finding and `rollout-doctor explain-scheduling`.
 */
import { selectorError } from './scheduling-category.js';

/**
 * The DynamicResources filter stopped at a selector that fails on some device with a
 * CEL runtime error (an attribute the device lacks, a bad quantity): nothing about free
 * devices or nodes is known until the selector is fixed.
 */
export function selectorErrorChange(reason: string): string {
  const e = selectorError(reason);
  const where = !e
    ? 'a device selector'
    : e.source === 'class'
      ? `selector #${e.index} of DeviceClass ${e.name}`
      : `selector #${e.index} of claim ${e.name} (its request's selectors; the ResourceClaimTemplate for a per-pod claim)`;
  return `${where} fails with a CEL runtime error${e ? ` (${e.error})` : ''} on a device the scheduler evaluated, which stops the pod's scheduling at every attempt: fix ${e?.source === 'class' ? 'the DeviceClass' : e ? 'the claim' : 'the DeviceClass or claim'} selector so it evaluates on every device (guard an optional attribute with has(), for example); no node, capacity or strategy change helps until then`;
}
