/**
 * A DaemonSet's revisions are its ControllerRevisions (pkg/controller/daemon/update.go,
 * constructHistory): each holds the template as a strategic merge patch in `data`
 * ({spec:{template:{…,$patch:replace}}}), is named `<daemonset>-<hash>` and labelled
 * `controller-revision-hash: <hash>`, and the pods made from it carry the same label.
 * The current revision is the one whose data matches the DaemonSet's template; the
 * controller creates it (with the next revision number) on the first sync after a
 * template change. Pods are controlled by the DaemonSet itself, not by the revision.
 */
import { semanticEqual } from '../../base/semantic-equal.js';
import type { ControllerRevision, DaemonSet } from '../../k8s-workloads.js';
import { byRevisionDesc, REVISION_LABEL, type RevisionNaming } from '../controller-revisions.js';

/** apps.DefaultDaemonSetUniqueLabelKey: on the ControllerRevision and on each pod made from it. */
export const HASH_LABEL = REVISION_LABEL;

/** A DaemonSet's pods carry the revision's hash; the revision is named `<daemonset>-<hash>`. */
export const DAEMONSET_NAMING: RevisionNaming = {
  podKey: (revision) => revision.metadata.labels?.[HASH_LABEL],
  revisionName: (owner, hash) => `${owner}-${hash}`,
};

/** The template a ControllerRevision holds (its data's spec.template without the `$patch` directive). */
function revisionTemplate(revision: ControllerRevision): Record<string, unknown> | undefined {
  const data = revision.data;
  if (data === null || typeof data !== 'object') return undefined;
  const spec = (data as { spec?: unknown }).spec;
  if (spec === null || typeof spec !== 'object') return undefined;
  const template = (spec as { template?: unknown }).template;
  if (template === null || typeof template !== 'object') return undefined;
  const copy = { ...(template as Record<string, unknown>) };
  delete copy.$patch;
  return copy;
}

/**
 * The revision the DaemonSet rolls out to and the others, newest first. Once the
 * controller has observed the current generation, its current revision is the newest:
 * constructHistory (pkg/controller/daemon/update.go) finds the revision matching the
 * template and, when it is not the newest (a rollback to an older template), raises its
 * revision number to the next one, or creates a new revision with that number. Before
 * that, the revision whose template is the DaemonSet's (semantic equality, as the
 * controller's Match compares the patch) is the one it will pick, or none yet.
 */
export function classifyRevisions(
  daemonSet: DaemonSet,
  revisions: readonly ControllerRevision[],
): { current?: ControllerRevision; old: ControllerRevision[] } {
  const sorted = [...revisions].sort(byRevisionDesc);
  const observed = daemonSet.status?.observedGeneration;
  const generation = daemonSet.metadata.generation;
  const settled = observed !== undefined && generation !== undefined && observed >= generation;
  const current = settled
    ? sorted[0]
    : sorted.find((r) => {
        const template = revisionTemplate(r);
        return template !== undefined && semanticEqual(template, daemonSet.spec.template);
      });
  const old = sorted.filter((r) => r !== current);
  return current ? { current, old } : { old };
}
