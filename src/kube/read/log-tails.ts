/**
 * Previous-container log tails for crashing containers: the last words of the
 * process that died, bounded in bytes and lines, and at most one per node and
 * container (the crash table shows one per node).
 */
import type { Pod } from '../../diagnosis/k8s.js';
import { logKey, type AccessProblem } from '../../diagnosis/snapshot/types.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { secondaryRead } from './secondary-read.js';

const MAX_LOG_TAILS = 4;
const TAIL_LINES = 40;

/** Containers that have terminated at least once with a failure and are restarting. */
function crashingContainers(pod: Pod): string[] {
  return (pod.status?.containerStatuses ?? [])
    .filter((s) => {
      const last = s.lastState?.terminated;
      const waiting = s.state?.waiting?.reason;
      return (
        s.restartCount > 0 && ((last !== undefined && last.exitCode !== 0) || waiting === 'CrashLoopBackOff')
      );
    })
    .map((s) => s.name);
}

/** Picks which (pod, container) logs to read: one per node and container name, capped. */
export function pickLogTargets(
  pods: readonly Pod[],
  cap = MAX_LOG_TAILS,
): { pod: string; container: string }[] {
  const seen = new Set<string>();
  const targets: { pod: string; container: string }[] = [];
  for (const pod of pods) {
    for (const container of crashingContainers(pod)) {
      const key = `${pod.spec.nodeName ?? ''}/${container}`;
      if (seen.has(key) || targets.length >= cap) continue;
      seen.add(key);
      targets.push({ pod: pod.metadata.name ?? '', container });
    }
  }
  return targets;
}

export async function collectLogTails(
  client: KubeClient,
  pods: readonly Pod[],
  problems: AccessProblem[],
  limitBytes: number,
): Promise<Record<string, string>> {
  const namespace = pods[0]?.metadata.namespace;
  if (namespace === undefined) return {};
  const targets = pickLogTargets(pods);
  const tails = await Promise.all(
    targets.map(({ pod, container }) =>
      secondaryRead(problems, undefined as string | undefined, async () => {
        try {
          return await client.text({
            verb: 'get',
            resource: 'pods',
            subresource: 'log',
            namespace,
            name: pod,
            query: { container, previous: true, tailLines: TAIL_LINES, limitBytes },
          });
        } catch (error) {
          // 400/404: no previous container yet (it is between restarts); nothing to show, nothing wrong.
          if (error instanceof KubeApiError && (error.status === 400 || error.status === 404))
            return undefined;
          throw error;
        }
      }),
    ),
  );
  const logs: Record<string, string> = {};
  targets.forEach(({ pod, container }, i) => {
    const tail = tails[i];
    if (tail !== undefined) logs[logKey(pod, container)] = tail;
  });
  return logs;
}
