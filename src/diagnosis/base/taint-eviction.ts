/**
 * When the taint-eviction controller deletes a pod from a node with NoExecute taints
 * (pkg/controller/tainteviction processPodOnNode, getMinTolerationTime, with
 * v1helper.GetMatchingTolerations): each NoExecute taint takes the first of the pod's
 * tolerations that tolerates it; a taint none tolerates evicts the pod at once;
 * otherwise it goes once the least `tolerationSeconds` among those has passed since the
 * taint came (0 or less: at once), and never where none of them sets seconds. The
 * `node.kubernetes.io/unreachable` and `not-ready` taints a node that stops reporting
 * gets are NoExecute, and admission (DefaultTolerationSeconds) gives every pod that
 * does not tolerate them already 300 s of each; a DaemonSet's pods, or a template with
 * `operator: Exists`, tolerate them for ever.
 */
import type { Node, Pod, Taint } from '../k8s.js';
import { tolerates } from './node-match.js';

export type TaintEviction =
  /** Deleted at `at` (the taint's time plus `seconds`), for `taint`. */
  | { when: 'at'; at: string; seconds: number; taint: string }
  /** A taint it does not tolerate: deleted as soon as the controller sees it. */
  | { when: 'now'; taint: string }
  /** Every NoExecute taint tolerated with no seconds: never deleted for them. */
  | { when: 'never'; taint: string }
  /** A toleration with seconds, but the taint's time is not in the object. */
  | { when: 'unknown'; seconds: number; taint: string };

/** What the node's NoExecute taints do to `pod`; undefined: the node has none. */
export function taintEviction(pod: Pod, node: Node): TaintEviction | undefined {
  const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
  const first = taints[0];
  if (!first) return undefined;
  const used: { taint: Taint; seconds: number | undefined }[] = [];
  for (const taint of taints) {
    const toleration = (pod.spec.tolerations ?? []).find((t) => tolerates(t, taint));
    if (!toleration) return { when: 'now', taint: taint.key };
    used.push({ taint, seconds: toleration.tolerationSeconds });
  }
  const timed = used.filter((u) => u.seconds !== undefined);
  const soonest = timed.sort((a, b) => (a.seconds ?? 0) - (b.seconds ?? 0))[0];
  if (!soonest) return { when: 'never', taint: first.key };
  const seconds = Math.max(0, soonest.seconds ?? 0);
  if (seconds === 0) return { when: 'now', taint: soonest.taint.key };
  const since = Date.parse(soonest.taint.timeAdded ?? '');
  if (!Number.isFinite(since)) return { when: 'unknown', seconds, taint: soonest.taint.key };
  return {
    when: 'at',
    at: new Date(since + seconds * 1000).toISOString().replace(/\.000Z$/, 'Z'),
    seconds,
    taint: soonest.taint.key,
  };
}
