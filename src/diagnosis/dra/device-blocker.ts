/**
 * What keeps a pod's DRA request off a node, as the device check reports it: the
 * request, how many devices it needs, how many on the node match, are free, are freed
 * by the pods taken away, cannot be counted or are tainted, and who holds the rest.
 */
import type { Pod } from '../k8s.js';
export interface HeldDevice {
  device: string;
  claim: string;
  pods: string[];
  /** For a claim no pod uses: why it still holds the device (unused-claims.ts). */
  unused?: string;
}

export interface DeviceBlocker {
  kind: 'devices';
  /** "claim gpu (vision/tracker-...-gpu-x7kqz), request gpu". */
  request: string;
  deviceClassName: string;
  /** What the request needs: a count (ExactCount) or every matching device (All). */
  need: number;
  allocationMode: string;
  /** Devices on the node that match (selectors evaluated, taints tolerated). */
  matching: number;
  free: number;
  /**
   * Of `free`, the devices free only because the check took pods away (the old pods,
   * or claims being freed): held now. The sentence says both counts.
   */
  released: number;
  /** Devices whose match could not be evaluated. */
  unknownMatching: number;
  /** Why unknownMatching devices are unknown (the first reason). */
  unknownWhy?: string;
  /** What would settle them, when not an evaluation of the selectors. */
  unknownRead?: string;
  /**
   * A selector fails on some device with a CEL runtime error, as it does upstream (those
   * devices are among unknownMatching): the scheduler aborts scheduling the pod with
   * that error whenever its search reaches such a device.
   */
  selectorError?: string;
  /** Devices that match but carry a taint the request does not tolerate. */
  tainted: number;
  holders: { pod: Pod; amount: number }[];
  /** Matching devices and who holds them, for the capacity table. */
  held: HeldDevice[];
  /** Set for a claim allocated on other nodes (shared claim, or a claim pinned earlier). */
  allocatedElsewhere?: string;
  /**
   * Nothing on the node matches, and every ResourceSlice and DeviceClass was read: how
   * the devices published anywhere fare. `ofClass` pass the DeviceClass's selectors,
   * `matching` the request's `selectors` (CEL) too. Absent where a match is unknown.
   */
  published?: PublishedMatch;
}

export interface PublishedMatch {
  devices: number;
  ofClass: number;
  matching: number;
  selectors: string[];
}
