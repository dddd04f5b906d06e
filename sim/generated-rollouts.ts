/**
 * The Argo Rollout family of the generated states (sim/generated-states.ts, `--kind
 * Rollout`): a basic canary (setWeight steps, each sometimes followed by a pause with a
 * duration or without one, maxSurge and maxUnavailable as ints and percents or left to
 * their 25% defaults) or blue-green (auto-promotion on, delayed or off, sometimes a
 * preview of one replica), with the Services blue-green names. What the simulator's
 * controller (sim/controllers/argo/) runs and no more: a canary with trafficRouting is
 * left alone there, so no traffic routing, hence no setCanaryScale and no
 * dynamicStableScale (both need a traffic router); no analysis or experiment steps
 * (they would wait for ever in the simulator).
 */
import type { Pick } from './generated-states.js';

type Chance = (p: number) => boolean;
type IntOrPercent = number | string;

/** Rising setWeight steps, each sometimes followed by a pause (with a duration, or one that waits for a promote). */
export function canarySteps(pick: Pick, chance: Chance): object[] {
  const count = pick([0, 1, 2, 3] as const);
  const weights = [...new Set(Array.from({ length: count }, () => pick([10, 20, 25, 33, 50, 60, 75, 80])))];
  weights.sort((a, b) => a - b);
  return weights.flatMap((setWeight) => {
    if (!chance(0.6)) return [{ setWeight }];
    const pause = chance(0.35) ? {} : { duration: pick([10, '20s', '1m'] as const) };
    return [{ setWeight }, { pause }];
  });
}

/** A basic canary, maxSurge and maxUnavailable never both 0 (the controller's validation refuses that). */
function canaryStrategy(pick: Pick, chance: Chance): object {
  for (;;) {
    const maxSurge: IntOrPercent | undefined = chance(0.2)
      ? undefined
      : pick([0, 1, 2, '25%', '50%', '100%'] as const);
    const maxUnavailable: IntOrPercent | undefined = chance(0.2)
      ? undefined
      : pick([0, 1, '25%', '50%'] as const);
    const zero = (v: IntOrPercent | undefined): boolean => v === 0 || v === '0%';
    if (zero(maxSurge) && zero(maxUnavailable)) continue;
    return {
      canary: {
        steps: canarySteps(pick, chance),
        ...(maxSurge !== undefined ? { maxSurge } : {}),
        ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
      },
    };
  }
}

export function blueGreenStrategy(pick: Pick, chance: Chance, name: string): object {
  const auto = pick(['on', 'delayed', 'off'] as const);
  return {
    blueGreen: {
      activeService: `${name}-active`,
      ...(chance(0.5) ? { previewService: `${name}-preview` } : {}),
      ...(auto === 'off' ? { autoPromotionEnabled: false } : {}),
      ...(auto === 'delayed' ? { autoPromotionSeconds: pick([10, 30] as const) } : {}),
      ...(chance(0.3) ? { previewReplicaCount: 1 } : {}),
    },
  };
}

/** spec.strategy of a generated Rollout: a basic canary (seven in ten) or blue-green. */
export function rolloutStrategy(pick: Pick, chance: Chance, name = 'web'): object {
  return chance(0.7) ? canaryStrategy(pick, chance) : blueGreenStrategy(pick, chance, name);
}

export function rollout(
  namespace: string,
  name: string,
  replicas: number,
  strategy: object,
  template: object,
): { spec: object; [key: string]: unknown } {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name, namespace },
    spec: { replicas, selector: { matchLabels: { app: name } }, strategy, template },
  };
}

/** The Services a blue-green strategy names (the controller refuses the spec without them). */
export function rolloutServices(namespace: string, name: string, strategy: object): object[] {
  const bg = (strategy as { blueGreen?: { activeService?: string; previewService?: string } }).blueGreen;
  return [bg?.activeService, bg?.previewService]
    .filter((s): s is string => s !== undefined)
    .map((service) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: service, namespace },
      spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
    }));
}
