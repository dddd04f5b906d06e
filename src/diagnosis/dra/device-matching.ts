/**
 * Which of a node's devices a request alternative matches: its DeviceClass's and its own
 * CEL selectors evaluated once per device (memoized in the DRA index), taints the
 * request does not tolerate counted apart, and the devices this model cannot count (a
 * pool the scheduler skips, a device several claims may share) or whose selector could
 * not be evaluated kept as unknown, never as matching.
 */
import { deviceFields } from './cel.js';
import { matchDevice, type NodeDevice } from './devices.js';
import type { DraIndex } from './dra-index.js';
import type { Alternative } from './needs.js';

/** Devices that may match but cannot be counted: how many, the first reason, and the read that settles it. */
export interface Unknowns {
  count: number;
  why?: string;
  read?: string;
}

/** The node's devices the alternative's selectors match (memoized per alternative and device). */
export function matchingDevices(
  index: DraIndex,
  alternative: Alternative,
  devices: readonly NodeDevice[],
): { matching: NodeDevice[]; unknown: Unknowns; selectorError?: string; tainted: number } {
  const matching: NodeDevice[] = [];
  const unknown: Unknowns = { count: 0 };
  let selectorError: string | undefined;
  let tainted = 0;
  let memo = index.matches.get(alternative);
  if (!memo) {
    memo = new Map();
    index.matches.set(alternative, memo);
  }
  for (const device of devices) {
    let match = memo.get(device.key);
    if (!match) {
      match = matchDevice(alternative, index.dra.classes, index.classesComplete, device);
      memo.set(device.key, match);
    }
    // A device this model cannot count (a pool the scheduler skips, capacity shared by
    // several claims) is unknown, never free and never a holder's to release.
    const uncounted = match.result === 'no-match' ? undefined : uncountable(device);
    if (uncounted) {
      unknown.count++;
      if (!unknown.why) [unknown.why, unknown.read] = uncounted;
    } else if (match.result === 'match') matching.push(device);
    else if (match.result === 'unknown') {
      unknown.count++;
      unknown.why ??= match.why;
    } else if (match.result === 'error') {
      // Never a match, and never settled as "no device": where the scheduler's search
      // reaches this device it stops scheduling the pod with the error.
      unknown.count++;
      selectorError ??= `${match.why} (device ${device.key})`;
    } else if (match.result === 'tainted') tainted++;
  }
  return { matching, unknown, ...(selectorError ? { selectorError } : {}), tainted };
}

/** Why the model cannot count this device as free or held, and what would settle it. */
function uncountable(device: NodeDevice): [why: string, read: string] | undefined {
  if (device.unusable) {
    return [
      device.unusable,
      'the ResourceSlices once the driver has republished the whole pool (kubectl get resourceslices -o yaml)',
    ];
  }
  if (deviceFields(device.device).allowMultipleAllocations === true) {
    return [
      `device ${device.name} may be shared by several claims (allowMultipleAllocations), and how much of its capacity they take is not modeled`,
      `the capacity the claims sharing ${device.key} consume (status.allocation.devices.results[].consumedCapacity in kubectl get resourceclaims -A -o yaml; this analysis does not add it up)`,
    ];
  }
  return undefined;
}
