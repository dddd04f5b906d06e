import type { AlertmanagerPayload } from '../../src/app/alerts/payload.js';

type Alert = AlertmanagerPayload['alerts'][number];

/** One Alertmanager alert as a webhook carries it; override what the test is about. */
export function alert(labels: Record<string, string>, overrides: Partial<Alert> = {}): Alert {
  return {
    status: 'firing',
    labels,
    annotations: { summary: `${labels['alertname'] ?? 'Alert'} is firing` },
    startsAt: '2026-11-20T10:00:00.000Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus.example/graph',
    fingerprint: 'abc123',
    ...overrides,
  };
}

/** A version 4 webhook payload around the given alerts. */
export function notification(
  alerts: Alert[],
  overrides: Partial<AlertmanagerPayload> = {},
): AlertmanagerPayload {
  const status = alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved';
  return {
    version: '4',
    groupKey: '{}/{severity="critical"}:{alertname="KubePodCrashLooping"}',
    truncatedAlerts: 0,
    status,
    receiver: 'rollout-doctor',
    groupLabels: { alertname: alerts[0]?.labels['alertname'] ?? 'x' },
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example:9093',
    alerts,
    ...overrides,
  };
}

/** KubePodCrashLooping with the annotations kube-prometheus' kubernetes-mixin rule writes. */
export const crashLooping = (pod: string, namespace = 'shop', extra: Record<string, string> = {}): Alert => {
  const labels = {
    alertname: 'KubePodCrashLooping',
    namespace,
    pod,
    container: 'app',
    severity: 'warning',
    ...extra,
  };
  return alert(labels, {
    annotations: {
      description: `Pod ${namespace}/${pod} (${labels.container}) is in waiting state (reason: "CrashLoopBackOff").`,
      runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubepodcrashlooping',
      summary: 'Pod is crash looping.',
    },
  });
};

export const rolloutStuck = (
  deployment: string,
  namespace = 'shop',
  extra: Record<string, string> = {},
): Alert =>
  alert({
    alertname: 'KubeDeploymentRolloutStuck',
    namespace,
    deployment,
    container: 'kube-state-metrics',
    severity: 'warning',
    ...extra,
  });
