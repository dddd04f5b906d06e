/** Facts about a pod template that plan builders need for their warnings. */
import type { LabelSelector, PodSpec } from '../../diagnosis/k8s.js';
import type { NodeAgent } from '../plan-words.js';

/** True when a required pod anti-affinity on kubernetes.io/hostname selects the template's own pods. */
export function antiAffinityOnePerNode(spec: PodSpec, templateLabels: Record<string, string>): boolean {
  const terms = spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.some(
    (t) =>
      t.topologyKey === 'kubernetes.io/hostname' &&
      t.labelSelector !== undefined &&
      selects(t.labelSelector, templateLabels),
  );
}

/** Label selector semantics (matchLabels and matchExpressions ANDed); an empty selector selects everything. */
function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabel &&
    (selector.matchExpressions ?? []).every((e) => {
      const has = Object.hasOwn(labels, e.key);
      const values = e.values ?? [];
      switch (e.operator) {
        case 'In':
          return has && values.includes(labels[e.key] ?? '');
        case 'NotIn':
          return !has || !values.includes(labels[e.key] ?? '');
        case 'Exists':
          return has;
        case 'DoesNotExist':
          return !has;
        default:
          return false;
      }
    })
  );
}

/**
 * What a node loses when this DaemonSet's pod is gone from it, from the paths its pod
 * mounts from the host (the conventions kubelet and the plugins share): a CNI plugin
 * (/etc/cni/net.d, /opt/cni/bin: new pods there get no network), a CSI node plugin
 * (/var/lib/kubelet/plugins_registry or /var/lib/kubelet/plugins: volumes of that
 * driver no longer mount there) or a device plugin (/var/lib/kubelet/device-plugins:
 * the node's devices stop being offered). Undefined: none of these.
 */
export function nodeAgentOf(spec: PodSpec): NodeAgent | undefined {
  const paths = (spec.volumes ?? []).flatMap((v) =>
    v.hostPath?.path ? [v.hostPath.path.replace(/\/+$/, '')] : [],
  );
  const has = (prefix: string): boolean => paths.some((p) => p === prefix || p.startsWith(`${prefix}/`));
  if (has('/etc/cni/net.d') || has('/opt/cni/bin')) return 'cni';
  if (has('/var/lib/kubelet/plugins_registry') || has('/var/lib/kubelet/plugins')) return 'csi';
  if (has('/var/lib/kubelet/device-plugins')) return 'device';
  return undefined;
}
