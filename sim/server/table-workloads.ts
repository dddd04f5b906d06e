/**
 * Server-side Table rows for StatefulSets, DaemonSets and ControllerRevisions, with
 * kube-apiserver's columns (pkg/printers/internalversion/printers.go:
 * statefulSetColumnDefinitions, daemonSetColumnDefinitions,
 * controllerRevisionColumnDefinition and their print functions).
 */
import type { LabelSelector, PodTemplateSpec } from '../../src/diagnosis/k8s.js';
import type { SimObject } from '../store.js';
import type { DaemonSet, StatefulSet } from '../controllers/workload-types.js';

export interface WorkloadColumn {
  name: string;
  type: string;
  format?: string;
  priority?: number;
}

const NAME: WorkloadColumn = { name: 'Name', type: 'string', format: 'name' };
const AGE: WorkloadColumn = { name: 'Age', type: 'string' };
const CONTAINERS: WorkloadColumn = { name: 'Containers', type: 'string', priority: 1 };
const IMAGES: WorkloadColumn = { name: 'Images', type: 'string', priority: 1 };

/** layoutContainerCells: names and images, comma-joined. */
function containerCells(template: PodTemplateSpec | undefined): [string, string] {
  const containers = template?.spec?.containers ?? [];
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image ?? '').join(',')];
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
function formatLabels(labels: Record<string, string> | undefined): string {
  const pairs = Object.entries(labels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  return pairs.length > 0 ? pairs.join(',') : '<none>';
}

/** metav1.FormatLabelSelector. */
function formatSelector(selector: LabelSelector | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  for (const e of selector?.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length > 0 ? parts.join(',') : '<none>';
}

/** The row of a StatefulSet, DaemonSet or ControllerRevision; undefined for other kinds. */
export function workloadRow(
  o: SimObject,
  age: string,
): { columns: WorkloadColumn[]; cells: unknown[] } | undefined {
  if (o.kind === 'StatefulSet') {
    const s = o as unknown as StatefulSet;
    const [names, images] = containerCells(s.spec?.template);
    return {
      columns: [NAME, { name: 'Ready', type: 'string' }, AGE, CONTAINERS, IMAGES],
      cells: [
        o.metadata.name,
        `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 0}`,
        age,
        names,
        images,
      ],
    };
  }
  if (o.kind === 'DaemonSet') {
    const d = o as unknown as DaemonSet;
    const st = d.status;
    const [names, images] = containerCells(d.spec?.template);
    return {
      columns: [
        NAME,
        { name: 'Desired', type: 'integer' },
        { name: 'Current', type: 'integer' },
        { name: 'Ready', type: 'integer' },
        { name: 'Up-to-date', type: 'integer' },
        { name: 'Available', type: 'integer' },
        { name: 'Node Selector', type: 'string' },
        AGE,
        CONTAINERS,
        IMAGES,
        { name: 'Selector', type: 'string', priority: 1 },
      ],
      cells: [
        o.metadata.name,
        st?.desiredNumberScheduled ?? 0,
        st?.currentNumberScheduled ?? 0,
        st?.numberReady ?? 0,
        st?.updatedNumberScheduled ?? 0,
        st?.numberAvailable ?? 0,
        formatLabels(d.spec?.template?.spec?.nodeSelector),
        age,
        names,
        images,
        formatSelector(d.spec?.selector),
      ],
    };
  }
  if (o.kind === 'ControllerRevision') {
    // printControllerRevision: the controller as `<kind>.<group>/<name>` in lower case.
    const ref = o.metadata.ownerReferences?.find((r) => r.controller);
    const group = ref?.apiVersion?.includes('/') ? `.${ref.apiVersion.split('/')[0] ?? ''}` : '';
    const controller = ref ? `${ref.kind.toLowerCase()}${group}/${ref.name}` : '<none>';
    return {
      columns: [NAME, { name: 'Controller', type: 'string' }, { name: 'Revision', type: 'string' }, AGE],
      cells: [o.metadata.name, controller, Number(o['revision'] ?? 0), age],
    };
  }
  return undefined;
}
