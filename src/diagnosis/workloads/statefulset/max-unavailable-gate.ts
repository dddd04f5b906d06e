/**
 * A StatefulSet's `maxUnavailable` is honoured only where the MaxUnavailableStatefulSet
 * feature gate is on (pkg/features/kube_features.go; KEP-961); elsewhere the controller
 * replaces one pod at a time. The gate's default changed within one minor version:
 * - 1.24–1.34: alpha, off by default;
 * - 1.35.0–1.35.3: beta, on by default (kubernetes#133153);
 * - 1.35.4 and later 1.35 releases, and 1.36: off by default again, after a regression
 *   in Parallel pod management (kubernetes#137409; #137904, cherry-picked as #137926);
 * - 1.37 and later: on by default (kubernetes#139466).
 * Only the default can be told from the version: a cluster may set the gate either way.
 */
import type { StatefulSet } from '../../k8s-workloads.js';
import { resolveStrategy } from './statefulset-strategy.js';

type GateDefault = 'on' | 'off' | 'absent' | 'unknown';

/** The gate's default for an API server's gitVersion ("v1.35.2", "v1.35.4-gke.1200"). */
export function maxUnavailableGateDefault(gitVersion: string | undefined): GateDefault {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(gitVersion ?? '');
  if (!match) return 'unknown';
  const [minor, patch] = [Number(match[2]), Number(match[3])];
  if (Number(match[1]) !== 1) return 'unknown';
  if (minor < 24) return 'absent';
  if (minor < 35) return 'off';
  if (minor === 35) return patch <= 3 ? 'on' : 'off';
  if (minor === 36) return 'off';
  return 'on';
}

/**
 * What a StatefulSet that sets maxUnavailable gets on this server, in words; undefined
 * when it does not set it (one pod at a time, whatever the gate).
 */
export function maxUnavailableNote(sts: StatefulSet, gitVersion: string | undefined): string | undefined {
  const raw = sts.spec.updateStrategy?.rollingUpdate?.maxUnavailable;
  if (raw === undefined) return undefined;
  const value = resolveStrategy(sts).maxUnavailable?.value ?? 1;
  const field = `maxUnavailable ${String(raw)}`;
  const gate = 'the MaxUnavailableStatefulSet feature gate';
  switch (maxUnavailableGateDefault(gitVersion)) {
    case 'on':
      return `${field} is honoured only where ${gate} is on; this API server reports ${gitVersion ?? ''}, where it is on by default, so the controller lets up to ${value} pod${value === 1 ? '' : 's'} be unavailable at once (unless the gate was turned off).`;
    case 'off':
      return `${field} is honoured only where ${gate} is on; this API server reports ${gitVersion ?? ''}, where it is off by default${/^v?1\.35\./.test(gitVersion ?? '') ? ' (from 1.35.4, after kubernetes#137409)' : ''}, so the controller replaces one pod at a time unless the gate was turned on.`;
    case 'absent':
      return `${field} is not served before Kubernetes 1.24 (this API server reports ${gitVersion ?? ''}): the controller replaces one pod at a time.`;
    case 'unknown':
      return `${field} is honoured only where ${gate} is on, by default in 1.35.0–1.35.3 and from 1.37 (off in 1.24–1.34, from 1.35.4 after kubernetes#137409, and in 1.36); the API server's version was ${gitVersion ? `"${gitVersion}", not one this can read` : 'not read (a dump has none)'}, so whether the controller replaces one pod at a time or up to ${value} is not known here.`;
  }
}
