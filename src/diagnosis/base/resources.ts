/**
 * Resource accounting the way kube-scheduler's NodeResourcesFit plugin does it
 * (k8s.io/component-helpers resource.PodRequests):
 *
 * - a container's request for a resource defaults to its limit when only the limit
 *   is set (API defaulting for pods; a Deployment's template is not defaulted, so
 *   we apply it here). This covers cpu/memory and extended resources such as
 *   nvidia.com/gpu, which are usually written as limits only;
 * - the pod's request is max(sum of app containers + sidecars, the largest init
 *   container step), per resource, plus the RuntimeClass overhead;
 * - pod-level resources (`spec.resources`, PodLevelResources: beta and on by default
 *   since 1.34) take the place of the containers' for cpu, memory and hugepages-* where
 *   set (PodRequests: IsPodLevelRequestsSet); the overhead is still added;
 * - amounts are integers: cpu in millicores, everything else in base units.
 */
import type { Container, Node, PodSpec, Quantity } from '../k8s.js';
import { schedulerAmount } from './quantity.js';

/** Amounts per resource name, in scheduler units (cpu: millicores). */
export type ResourceAmounts = Record<string, number>;

/** Adds each quantity of the list to `into`, skipping malformed values. */
function addList(into: ResourceAmounts, list: Record<string, Quantity> | undefined): void {
  for (const [name, quantity] of Object.entries(list ?? {})) {
    const amount = safeAmount(name, quantity);
    if (amount !== undefined) into[name] = (into[name] ?? 0) + amount;
  }
}

function addAmounts(into: ResourceAmounts, from: ResourceAmounts): void {
  for (const [name, amount] of Object.entries(from)) into[name] = (into[name] ?? 0) + amount;
}

function maxInto(into: ResourceAmounts, from: ResourceAmounts): void {
  for (const [name, amount] of Object.entries(from)) into[name] = Math.max(into[name] ?? 0, amount);
}

function safeAmount(name: string, quantity: Quantity): number | undefined {
  try {
    return schedulerAmount(name, quantity);
  } catch {
    return undefined;
  }
}

/**
 * A container's effective requests: explicit requests, and the limit for every
 * resource that has a limit but no request.
 *
 * @example containerRequests({name:'a', resources:{limits:{'nvidia.com/gpu':1}}}) // {'nvidia.com/gpu': 1}
 */
export function containerRequests(container: Container): ResourceAmounts {
  const requests: Record<string, Quantity> = {
    ...container.resources?.limits,
    ...container.resources?.requests,
  };
  const amounts: ResourceAmounts = {};
  addList(amounts, requests);
  return amounts;
}

/** The resources a pod may set at pod level (IsSupportedPodLevelResource). */
export const podLevelResource = (name: string): boolean =>
  name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');

/**
 * The pod-level requests, as API defaulting leaves them: a pod-level limit with no request
 * defaults its request to the containers' sum where any container requests it, else to
 * the limit (defaultPodRequests).
 */
function podLevelRequests(spec: PodSpec, containers: ResourceAmounts): ResourceAmounts {
  const level = spec.resources;
  if (!level) return {};
  const out: ResourceAmounts = {};
  for (const [name, quantity] of Object.entries(level.limits ?? {})) {
    if (!podLevelResource(name)) continue;
    const amount = containers[name] ?? safeAmount(name, quantity);
    if (amount !== undefined) out[name] = amount;
  }
  for (const [name, quantity] of Object.entries(level.requests ?? {})) {
    const amount = podLevelResource(name) ? safeAmount(name, quantity) : undefined;
    if (amount !== undefined) out[name] = amount;
  }
  return out;
}

/** The pod's effective requests, as the scheduler computes them (see module comment). */
export function podRequests(spec: PodSpec): ResourceAmounts {
  const containers = containersRequests(spec);
  const total = { ...containers, ...podLevelRequests(spec, containers) };
  addList(total, spec.overhead);
  return total;
}

/** The containers' requests: app containers and sidecars summed, each init step a floor. */
function containersRequests(spec: PodSpec): ResourceAmounts {
  const only = spec.containers[0];
  if (spec.containers.length === 1 && only && !spec.initContainers?.length) return containerRequests(only);
  const total: ResourceAmounts = {};
  for (const container of spec.containers) addAmounts(total, containerRequests(container));
  const sidecars: ResourceAmounts = {};
  const initMax: ResourceAmounts = {};
  for (const init of spec.initContainers ?? []) {
    const own = containerRequests(init);
    if (init.restartPolicy === 'Always') {
      // A sidecar keeps running next to the app containers and the later init steps.
      addAmounts(total, own);
      addAmounts(sidecars, own);
      maxInto(initMax, sidecars);
    } else {
      const step: ResourceAmounts = { ...own };
      addAmounts(step, sidecars);
      maxInto(initMax, step);
    }
  }
  maxInto(total, initMax);
  return total;
}

/** Non-zero requests only: a zero request never blocks scheduling. */
export function nonZero(amounts: ResourceAmounts): ResourceAmounts {
  return Object.fromEntries(Object.entries(amounts).filter(([, amount]) => amount > 0));
}

/** The node's allocatable amounts (status.allocatable, falling back to capacity). */
export function nodeAllocatable(node: Node): ResourceAmounts {
  const amounts: ResourceAmounts = {};
  addList(amounts, node.status?.allocatable ?? node.status?.capacity);
  return amounts;
}

/** What the node has in total, healthy or not (status.capacity). */
export function nodeCapacity(node: Node): ResourceAmounts {
  const amounts: ResourceAmounts = {};
  addList(amounts, node.status?.capacity ?? node.status?.allocatable);
  return amounts;
}

/**
 * Extended resources (device plugins: "nvidia.com/gpu", "example.com/foo"): a
 * domain-prefixed name outside kubernetes.io. They are integers and never
 * overcommitted, which is what makes them scarce.
 */
export function isExtendedResource(name: string): boolean {
  if (!name.includes('/')) return false;
  if (name.startsWith('requests.')) return false;
  const domain = name.slice(0, name.indexOf('/'));
  return domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}
