/**
 * What to change when the scheduler's DynamicResources filter stops at a device
 * selector with a CEL runtime error (scheduling-category.ts, `selector-error`): shared
 * by the engine's Unschedulable finding and `rollout-doctor explain-scheduling`.
 */
import { DIAGNOSIS_SENTENCES } from '../sentences.js';
import { selectorError } from './scheduling-category.js';

/**
 * The DynamicResources filter stopped at a selector that fails on some device with a
 * CEL runtime error (an attribute the device lacks, a bad quantity): nothing about free
 * devices or nodes is known until the selector is fixed.
 */
export function selectorErrorChange(reason: string): string {
  const e = selectorError(reason);
  if (!e) return DIAGNOSIS_SENTENCES.selectorUnnamed.en();
  const said = { index: String(e.index), name: e.name, error: e.error };
  return e.source === 'class'
    ? DIAGNOSIS_SENTENCES.selectorOfClass.en(said)
    : DIAGNOSIS_SENTENCES.selectorOfClaim.en(said);
}
