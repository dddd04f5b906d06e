/** Plain-language phrases about the rollout strategy, shared by the scheduling analyzers. */
import type { ResolvedStrategy, ResolvedValue } from '../resolved-strategy.js';

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
  if (strategy.type !== 'RollingUpdate') return strategy.type;
  if (strategy.argo === 'blueGreen') {
    return `blue-green (${strategy.maxSurge?.value ?? replicas} preview pod(s) beside the ${replicas} active one(s), which stay until promotion)`;
  }
  if (strategy.argo === 'trafficRouted') {
    return `a traffic-routed canary (the stable ReplicaSet keeps all ${replicas} pod(s) until promotion)`;
  }
  if (strategy.argo === 'canary') return `canary ${rollingPhrase(strategy, replicas)}`;
  return rollingPhrase(strategy, replicas);
}

function rollingPhrase(strategy: ResolvedStrategy, replicas: number): string {
  return `${value('maxSurge', strategy.maxSurge)}, ${value('maxUnavailable', strategy.maxUnavailable)} at ${replicas} ${strategy.per ?? 'replica'}${replicas === 1 ? '' : 's'}`;
}
