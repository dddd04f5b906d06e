/** Facts about a pod template that plan builders need for their warnings. */
import type { LabelSelector, PodSpec } from '../../diagnosis/k8s.js';

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
export function nodeAgentRole(spec: PodSpec): string | undefined {
  const paths = (spec.volumes ?? []).flatMap((v) =>
    v.hostPath?.path ? [v.hostPath.path.replace(/\/+$/, '')] : [],
  );
  const has = (prefix: string): boolean => paths.some((p) => p === prefix || p.startsWith(`${prefix}/`));
  if (has('/etc/cni/net.d') || has('/opt/cni/bin')) {
    return 'it is a CNI plugin (it mounts the CNI configuration): pods created on a node without it get no network, so the node is unusable for new pods';
  }
  if (has('/var/lib/kubelet/plugins_registry') || has('/var/lib/kubelet/plugins')) {
    return "it is a CSI node plugin (it registers with the kubelet's plugin registry): volumes of its driver no longer mount on a node without it";
  }
  if (has('/var/lib/kubelet/device-plugins')) {
    return "it is a device plugin (it registers in the kubelet's device-plugins directory): a node without it stops offering its devices, so pods that request them cannot start there";
  }
  return undefined;
}
