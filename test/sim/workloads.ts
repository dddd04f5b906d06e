/** Builders and API calls shared by the StatefulSet and DaemonSet simulator tests. */
import type { Simulator } from '../../sim/index.js';
import type { Pod } from '../../src/diagnosis/k8s.js';

export const node = (
  name: string,
  spec: Record<string, unknown> = {},
  labels: Record<string, string> = {},
): object => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec,
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});

/** A call to the simulator's API; the JSON body of the answer (or the Status of an error). */
export async function api(
  s: Simulator,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/strategic-merge-patch+json',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { 'Content-Type': method === 'PATCH' ? contentType : 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A strategic merge patch setting one container's image. */
export const imagePatch = (container: string, image: string): object => ({
  spec: { template: { spec: { containers: [{ name: container, image }] } } },
});

export const isReady = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The pods of a namespace by name. */
export const podsByName = (s: Simulator, ns: string): Map<string, Pod> =>
  new Map((s.list('Pod', ns) as Pod[]).map((p) => [p.metadata.name ?? '', p]));

export const revisionOf = (p: Pod | undefined): string | undefined =>
  p?.metadata.labels?.['controller-revision-hash'];

/** Restarts of a pod's first container: crash loops prove simulated time went by. */
export const restarts = (s: Simulator, ns: string, name: string): number =>
  (s.get('Pod', ns, name) as Pod | undefined)?.status?.containerStatuses?.[0]?.restartCount ?? 0;
