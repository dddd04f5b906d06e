/**
 * How the devices published anywhere fare against a request alternative, for a node
 * where nothing matches: how many pass the DeviceClass's selectors, and how many the
 * request's too. Only when every ResourceSlice and DeviceClass was read.
 */
import { matchDevice, publishedDevices } from './devices.js';
import type { PublishedMatch } from './device-blocker.js';
import type { DraIndex } from './dra-index.js';
import type { Alternative } from './needs.js';

export function publishedField(index: DraIndex, alternative: Alternative): { published?: PublishedMatch } {
  if (!index.publishedComplete) return {};
  if (!index.published.has(alternative)) index.published.set(alternative, publishedMatch(index, alternative));
  const published = index.published.get(alternative);
  return published ? { published } : {};
}

/**
 * The published devices (every node's) against the DeviceClass's selectors alone and
 * with the request's: a match is counted whatever holds the device or taints it. Undefined
 * when a selector cannot be settled on some device.
 */
function publishedMatch(index: DraIndex, alternative: Alternative): PublishedMatch | undefined {
  const devices = publishedDevices(index.dra.slices);
  const classOnly = { ...alternative, selectors: [] };
  let ofClass = 0;
  let matching = 0;
  for (const device of devices) {
    const byClass = matchDevice(classOnly, index.dra.classes, true, device).result;
    if (byClass === 'unknown' || byClass === 'error') return undefined;
    if (byClass === 'no-match') continue;
    ofClass++;
    const both = matchDevice(alternative, index.dra.classes, true, device).result;
    if (both === 'unknown' || both === 'error') return undefined;
    if (both !== 'no-match') matching++;
  }
  const selectors = (alternative.selectors ?? []).flatMap((s) => (s.cel ? [s.cel.expression] : []));
  return { devices: devices.length, ofClass, matching, selectors };
}
