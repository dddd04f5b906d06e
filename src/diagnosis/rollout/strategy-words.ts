/**
 * Plain-language phrases about the rollout strategy and the misleading native
 * signals, shared by the scheduling analyzers.
 */
import type { ResolvedStrategy, ResolvedValue } from '../strategy.js';
import type { Deployment } from '../k8s.js';
import {
  kubectlDescribeStrategyLine,
  kubectlRolloutStatusLine,
} from '../workloads/deployment/kubectl-lines.js';

function value(name: string, v: ResolvedValue | null): string {
  if (!v) return `${name} n/a`;
  // 'unknown' equals the default too: only its origin is not recorded.
  const origin = v.source === 'explicit' ? '' : ' (default)';
  return String(v.raw) === String(v.value)
    ? `${name} ${v.value}${origin}`
    : `${name} ${v.raw}${origin} = ${v.value}`;
}

/** "maxSurge 25% (default) = 1, maxUnavailable 25% (default) = 0 at 1 replica" */
export function strategyPhrase(strategy: ResolvedStrategy, replicas: number): string {
  if (strategy.type === 'Recreate') return 'Recreate';
  return `${value('maxSurge', strategy.maxSurge)}, ${value('maxUnavailable', strategy.maxUnavailable)} at ${replicas} replica${replicas === 1 ? '' : 's'}`;
}

/**
 * Why kubectl's own output misleads here: the rollout status line reads as if the
 * old pods were about to go, and describe prints the percentages unresolved.
 */
export function nativeSignalsNote(
  deployment: Deployment,
  strategy: ResolvedStrategy,
  replicas: number,
): string {
  const parts: string[] = [];
  const status = kubectlRolloutStatusLine(deployment);
  parts.push(
    `\`kubectl rollout status\` prints "${status}" and waits forever: nothing is pending termination, the controller keeps the old pods until the new ones are Ready.`,
  );
  const describe = kubectlDescribeStrategyLine(deployment);
  if (describe && strategy.maxSurge && strategy.maxUnavailable) {
    parts.push(
      `\`kubectl describe deployment\` prints "${describe}" without resolving it: at ${replicas} replica${replicas === 1 ? '' : 's'} that means maxSurge ${strategy.maxSurge.value} (percentages round up) and maxUnavailable ${strategy.maxUnavailable.value} (percentages round down), so no old pod may go before a new one is Ready.`,
    );
  }
  return parts.join(' ');
}
