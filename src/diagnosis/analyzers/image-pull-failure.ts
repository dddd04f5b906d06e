import type { Analyzer } from '../analyzer.js';
import { classifyContainers, type ContainerReport } from '../crash/container-failures.js';
import type { Finding } from '../finding.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { podRows } from './report-groups.js';

/**
 * ImagePullFailure: ErrImagePull / ImagePullBackOff / InvalidImageName /
 * ErrImageNeverPull, with the cause read from the kubelet's "Failed to pull image"
 * message where there is one.
 */
export const imagePullFailure: Analyzer = {
  name: 'image-pull-failure',
  analyze(ctx) {
    const { snapshot } = ctx;
    const failing = classifyContainers(ctx).filter((r) => r.failures.includes('image-pull'));
    const images = [...new Set(failing.map((r) => r.image ?? '(unknown image)'))];
    return images.map((image) =>
      finding(
        snapshot,
        image,
        failing.filter((r) => (r.image ?? '(unknown image)') === image),
      ),
    );
  },
};

/** Causes in the order they are checked; the first whose pattern matches the pull error wins. */
const CAUSES: { pattern: RegExp; cause: string }[] = [
  {
    pattern: /no matching manifest for|no match for platform/i,
    cause: "the image has no build for this node's OS/architecture",
  },
  {
    pattern: /unauthorized|authentication required|pull access denied|denied: /i,
    cause: 'the registry refused the credentials (check imagePullSecrets)',
  },
  { pattern: /not found|manifest unknown|name unknown/i, cause: 'the image or tag does not exist' },
  {
    pattern: /i\/o timeout|dial tcp|no such host|connection refused|TLS handshake timeout/i,
    cause: 'the node cannot reach the registry',
  },
  { pattern: /too many requests|toomanyrequests|rate limit/i, cause: 'the registry is rate-limiting pulls' },
  {
    pattern: /invalid reference format|couldn't parse image/i,
    cause: 'the image name is not a valid reference',
  },
];

function finding(
  snapshot: WorkloadSnapshot,
  image: string,
  failing: ContainerReport[],
): Omit<Finding, 'remediations'> {
  const reasons = [...new Set(failing.map((r) => r.waitingReason ?? ''))].filter((r) => r !== '');
  const message = failing.find((r) => r.pullError)?.pullError ?? '';
  const cause = reasons.includes('InvalidImageName')
    ? 'the image name is not a valid reference'
    : reasons.includes('ErrImageNeverPull')
      ? 'imagePullPolicy is Never and the image is not on the node'
      : (CAUSES.find((c) => c.pattern.test(message))?.cause ?? 'see the kubelet message');
  const nodes = [...new Set(failing.map((r) => r.node).filter((n) => n !== undefined))];
  return {
    code: 'ImagePullFailure',
    severity: 'critical',
    summary: `Image ${image} can't be pulled (${reasons.join(', ')}): ${cause}.`,
    explanation:
      'The kubelet could not pull the image, so the container never started. ImagePullBackOff only means it is ' +
      'waiting before the next attempt (back-off up to 5 minutes); the real reason is in the "Failed to pull image" ' +
      `event.${nodes.length > 0 ? ` Affected node(s): ${nodes.join(', ')}.` : ''}`,
    evidence: [
      {
        type: 'pods',
        title: 'Containers waiting for their image',
        pods: podRows(
          failing,
          (r) => `${r.container}: ${r.waitingReason ?? ''}${r.pullError ? ` (${r.pullError})` : ''}`,
        ),
      },
      ...(message ? [{ type: 'note' as const, text: `kubelet: ${message}` }] : []),
    ],
  };
}
