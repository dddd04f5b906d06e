/**
 * Which alerts name which workload, and through which label. The defaults cover the
 * kubernetes-mixin alerts of DESIGN.md §6; ROLLOUT_DOCTOR_ALERT_MAP adds more.
 */
import { workloadTypes, type WorkloadType } from '../diagnosis/workload-ref.js';

/** How to find the workload in one alert's labels. */
interface AlertTargetSpec {
  /**
   * The workload's TYPE ("deployment", as kube-state-metrics names its label), or `pod`:
   * the label names a pod whose owning workload the worker resolves.
   */
  kind: WorkloadType | 'pod';
  /** Label holding the workload's or the pod's name. */
  label: string;
}

export type AlertMap = Readonly<Record<string, AlertTargetSpec>>;

/**
 * kubernetes-mixin alerts. The Deployment alerts' `container` label is the metrics
 * exporter's sidecar, so only the `deployment` label is used for them.
 */
export const DEFAULT_ALERT_MAP: AlertMap = Object.freeze({
  KubePodCrashLooping: { kind: 'pod', label: 'pod' },
  KubePodNotReady: { kind: 'pod', label: 'pod' },
  KubeContainerWaiting: { kind: 'pod', label: 'pod' },
  KubeDeploymentRolloutStuck: { kind: 'deployment', label: 'deployment' },
  KubeDeploymentReplicasMismatch: { kind: 'deployment', label: 'deployment' },
  KubeDeploymentGenerationMismatch: { kind: 'deployment', label: 'deployment' },
  // kube-state-metrics labels a DaemonSet's series `daemonset`, a StatefulSet's `statefulset`
  // (kubernetes-mixin apps alerts).
  KubeDaemonSetRolloutStuck: { kind: 'daemonset', label: 'daemonset' },
  KubeDaemonSetNotScheduled: { kind: 'daemonset', label: 'daemonset' },
  KubeDaemonSetMisScheduled: { kind: 'daemonset', label: 'daemonset' },
  KubeStatefulSetReplicasMismatch: { kind: 'statefulset', label: 'statefulset' },
  KubeStatefulSetUpdateNotRolledOut: { kind: 'statefulset', label: 'statefulset' },
  KubeStatefulSetGenerationMismatch: { kind: 'statefulset', label: 'statefulset' },
});

const NAME = /^[A-Za-z_][A-Za-z0-9_:.-]*$/;
const LABEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses the ROLLOUT_DOCTOR_ALERT_MAP setting: comma-separated entries
 * `AlertName=<type>[:label]` with a workload TYPE (`deployment`) or `pod` (label
 * defaults to the type). Throws an Error naming the bad entry.
 *
 * @example parseAlertMap('MyAppDown=deployment:app,Crashy=pod') // { MyAppDown: {kind:'deployment',label:'app'}, ... }
 */
export function parseAlertMap(text: string): AlertMap {
  const map: Record<string, AlertTargetSpec> = {};
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const [kind, label, ...rest] = (eq > 0 ? entry.slice(eq + 1) : '').split(':').map((s) => s.trim());
    if (!NAME.test(name) || !isTargetKind(kind) || rest.length > 0) {
      const forms = [...workloadTypes(), 'pod'].map((t) => `AlertName=${t}[:label]`).join(' or ');
      throw new Error(`bad entry "${entry}": expected ${forms}`);
    }
    const chosen = label === undefined || label === '' ? kind : label;
    if (!LABEL.test(chosen)) {
      throw new Error(`bad entry "${entry}": "${chosen}" is not a valid Prometheus label name`);
    }
    map[name] = { kind, label: chosen };
  }
  return Object.freeze(map);
}

function isTargetKind(kind: string | undefined): kind is AlertTargetSpec['kind'] {
  return kind === 'pod' || (workloadTypes() as (string | undefined)[]).includes(kind);
}

/** The defaults with configured entries on top (configuration wins on a name clash). */
export function mergeAlertMaps(extra: AlertMap): AlertMap {
  return Object.freeze({ ...DEFAULT_ALERT_MAP, ...extra });
}
