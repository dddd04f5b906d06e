/**
 * The "restricted" Pod Security Standard, checked on a pod spec as the API server's
 * PodSecurity admission would (deploy/namespace.yaml and the chart's namespace.create
 * enforce it). Shared by test/unit/ship-consistency.test.ts (deploy/) and
 * test/integration/helm-chart.test.ts (every chart values file).
 */
import { z } from 'zod';

/**
 * What the "restricted" Pod Security Standard (kubernetes.io/docs/concepts/security/pod-security-standards)
 * refuses in a pod spec: host namespaces, hostPath and other volume types, privileged
 * containers, host ports, privilege escalation, capabilities beyond NET_BIND_SERVICE
 * (and not dropping ALL), running as root, and no RuntimeDefault/Localhost seccomp profile.
 */
export function restrictedViolations(spec: Record<string, unknown>): string[] {
  const pod = z
    .object({
      hostNetwork: z.boolean().optional(),
      hostPID: z.boolean().optional(),
      hostIPC: z.boolean().optional(),
      securityContext: z
        .object({
          runAsNonRoot: z.boolean().optional(),
          runAsUser: z.number().optional(),
          seccompProfile: z.object({ type: z.string() }).optional(),
        })
        .loose()
        .default({}),
      volumes: z.array(z.record(z.string(), z.unknown())).default([]),
      initContainers: z.array(z.record(z.string(), z.unknown())).default([]),
      containers: z.array(z.record(z.string(), z.unknown())),
    })
    .loose()
    .parse(spec);
  const container = z
    .object({
      name: z.string(),
      ports: z.array(z.object({ hostPort: z.number().optional() }).loose()).default([]),
      securityContext: z
        .object({
          privileged: z.boolean().optional(),
          allowPrivilegeEscalation: z.boolean().optional(),
          runAsNonRoot: z.boolean().optional(),
          runAsUser: z.number().optional(),
          capabilities: z
            .object({ add: z.array(z.string()).optional(), drop: z.array(z.string()).optional() })
            .optional(),
          seccompProfile: z.object({ type: z.string() }).optional(),
        })
        .loose()
        .default({}),
    })
    .loose();
  const allowedVolumes = [
    'configMap',
    'csi',
    'downwardAPI',
    'emptyDir',
    'ephemeral',
    'persistentVolumeClaim',
    'projected',
    'secret',
  ];
  const out: string[] = [];
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) out.push('host namespaces');
  for (const v of pod.volumes) {
    const type = Object.keys(v).find((k) => k !== 'name') ?? '';
    if (!allowedVolumes.includes(type)) out.push(`volume ${String(v.name)}: ${type}`);
  }
  for (const raw of [...pod.initContainers, ...pod.containers]) {
    const c = container.parse(raw);
    const sc = c.securityContext;
    const where = `container ${c.name}`;
    if (sc.privileged) out.push(`${where}: privileged`);
    if (sc.allowPrivilegeEscalation !== false) out.push(`${where}: allowPrivilegeEscalation is not false`);
    if (!sc.capabilities?.drop?.includes('ALL')) out.push(`${where}: capabilities do not drop ALL`);
    for (const cap of sc.capabilities?.add ?? [])
      if (cap !== 'NET_BIND_SERVICE') out.push(`${where}: adds ${cap}`);
    if ((sc.runAsNonRoot ?? pod.securityContext.runAsNonRoot) !== true)
      out.push(`${where}: runAsNonRoot is not true`);
    if ((sc.runAsUser ?? pod.securityContext.runAsUser) === 0) out.push(`${where}: runAsUser 0`);
    const seccomp = sc.seccompProfile?.type ?? pod.securityContext.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
      out.push(`${where}: seccompProfile ${seccomp ?? 'unset'}`);
    if (c.ports.some((p) => p.hostPort !== undefined && p.hostPort !== 0)) out.push(`${where}: hostPort`);
  }
  return out;
}
