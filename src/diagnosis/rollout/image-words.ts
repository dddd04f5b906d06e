/**
 * A StatefulSet's stuck rollout in the words people know a release by: the images that
 * differ between the revision the rollout comes from and the update revision
 * (OrderedBlock.imageChanges), for the verdict and the forced rollback's plan alike.
 */
import type { ImageChange, OrderedBlock } from '../workload-kind.js';

/**
 * The images that differ, on the side the rollout comes from and on the update
 * revision's; each named by its container when more than one differs. Undefined when no
 * image differs (or the other revision's template was not read).
 */
export function imageWords(
  block: Pick<OrderedBlock, 'imageChanges'>,
): { from: string; to: string } | undefined {
  const changes = block.imageChanges;
  if (changes.length === 0) return undefined;
  const side = (pick: (c: ImageChange) => string): string =>
    changes.map((c) => (changes.length === 1 ? pick(c) : `${c.container}=${pick(c)}`)).join(', ');
  return { from: side((c) => c.from), to: side((c) => c.to) };
}
