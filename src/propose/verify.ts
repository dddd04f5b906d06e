/**
 * `check`'s engine on the proposed result: the rendered text (the file itself, `kubectl
 * kustomize` or `helm template` output) read as check reads manifests, the workload's
 * document judged against the cluster or the dump. The verdict goes in the pull request;
 * "can never finish" stops the push.
 *
 * A strategy change alone starts no rollout, so `check` would have nothing to judge; the
 * change is for the next rollout, so that one is judged too: the same manifest against
 * the live object with its pod template marked as other (what any template change to
 * come does), from the pods as they are now.
 */
import { checkOne, type CheckItem } from '../check/check.js';
import { ManifestError, parseManifests } from '../check/manifests.js';
import type { CheckSource } from '../check/source.js';
import type { WorkloadObject, WorkloadRef } from '../diagnosis/snapshot/types.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { RefusedInput } from './checkout.js';
import type { CheckOutcome } from './propose.js';

const NEXT_ROLLOUT = 'rollout-doctor.io/next-rollout';

/** The live object with a pod template the manifest's differs from. */
function otherTemplate(kind: WorkloadRef['kind'], live: WorkloadObject): WorkloadObject {
  const copy = structuredClone(live);
  const template = workloadKind(kind).podTemplate(copy);
  template.metadata = {
    ...template.metadata,
    annotations: { ...template.metadata?.annotations, [NEXT_ROLLOUT]: 'judged' },
  };
  return copy;
}

export async function checkRendered(
  text: string,
  file: string,
  target: WorkloadRef,
  source: CheckSource,
): Promise<CheckOutcome> {
  let workloads;
  try {
    workloads = parseManifests(text, file).workloads;
  } catch (error) {
    if (error instanceof ManifestError) throw new RefusedInput(error.message);
    throw error;
  }
  const found = workloads.find(
    (w) =>
      w.kind === target.kind &&
      w.object.metadata.name === target.name &&
      (w.object.metadata.namespace ?? target.namespace) === target.namespace,
  );
  if (!found)
    throw new RefusedInput(`the rendered ${file} holds no ${target.kind} ${target.namespace}/${target.name}`);
  const item: CheckItem = { kind: found.kind, object: found.object, at: found.at, locate: found.locate };
  const now = await checkOne(item, source, target.namespace);
  if (now.verdict !== 'no-rollout')
    return { verdict: now.verdict, ...(now.reason ? { reason: now.reason } : {}) };
  const live = await source.live(target.kind, target.namespace, target.name);
  if (!live.object) return { verdict: 'no-rollout' };
  const next = await checkOne(
    { ...item, old: otherTemplate(target.kind, live.object) },
    source,
    target.namespace,
  );
  return {
    verdict: 'no-rollout',
    next: next.verdict === 'no-rollout' ? 'unknown' : next.verdict,
    ...(next.reason ? { reason: next.reason } : {}),
  };
}
