import type { Analyzer } from '../analyzer.js';
import { classifyContainers, type ContainerReport } from '../crash/container-failures.js';
import type { Finding } from '../finding.js';
import type { Node } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { podRows } from './report-groups.js';

/**
 * ExecFormatError: the kernel refused to run the image's entrypoint because the
 * binary is built for another CPU architecture (or is not a binary the node can
 * exec). The node's architecture comes from its `kubernetes.io/arch` label; the
 * image's is inferred from the nodes where the same image runs.
 */
export const execFormatError: Analyzer = {
  name: 'exec-format-error',
  analyze(ctx) {
    const { snapshot } = ctx;
    const reports = classifyContainers(ctx);
    const failing = reports.filter((r) => r.failures.includes('exec-format-error'));
    const images = [...new Set(failing.map((r) => r.image ?? '(unknown image)'))];
    return images.map((image) =>
      finding(
        snapshot,
        image,
        failing.filter((r) => (r.image ?? '(unknown image)') === image),
        reports.filter((r) => r.image === image && r.ready && !r.failures.includes('exec-format-error')),
      ),
    );
  },
};

function finding(
  snapshot: WorkloadSnapshot,
  image: string,
  failing: ContainerReport[],
  working: ContainerReport[],
): Omit<Finding, 'remediations'> {
  const archOf = (node: string | undefined) => nodeArch(snapshot.nodes.find((n) => n.metadata.name === node));
  const badArchs = distinct(failing.map((r) => archOf(r.node)));
  const goodArchs = distinct(working.map((r) => archOf(r.node)));
  const badNodes = distinct(failing.map((r) => (r.node ? `${r.node} (${archOf(r.node)})` : 'unscheduled')));
  const goodNodes = distinct(working.map((r) => r.node ?? '')).filter((n) => n !== '');
  const builtFor = goodArchs.filter((a) => !badArchs.includes(a));
  const imageText =
    builtFor.length > 0
      ? `has no ${badArchs.join('/')} build (it runs on ${builtFor.join('/')} nodes: ${goodNodes.join(', ')})`
      : `does not run on ${badArchs.join('/')}`;
  return {
    code: 'ExecFormatError',
    severity: 'critical',
    summary: `Image ${image} ${imageText}: exec format error on ${badNodes.join(', ')}.`,
    explanation:
      '"exec format error" means the kernel cannot execute the entrypoint: almost always a binary built for another ' +
      'CPU architecture (an amd64-only image pulled on an arm64 node, or the reverse), sometimes a script without a ' +
      'shebang line. Publish a multi-architecture image (docker buildx --platform linux/amd64,linux/arm64), or keep ' +
      'the pods on matching nodes with a nodeSelector on kubernetes.io/arch.',
    evidence: [
      {
        type: 'pods',
        title: 'Containers failing with exec format error',
        pods: podRows(failing, (r) => `node arch ${archOf(r.node)}; ${r.execFormatEvidence?.trim() ?? ''}`),
      },
      {
        type: 'note',
        text: `node architecture (kubernetes.io/arch): ${badArchs.join(', ')}; image runs on: ${goodArchs.length > 0 ? goodArchs.join(', ') : 'no node in this snapshot'}`,
      },
    ],
  };
}

function nodeArch(node: Node | undefined): string {
  return node?.metadata.labels?.['kubernetes.io/arch'] ?? node?.status?.nodeInfo?.architecture ?? 'unknown';
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort();
}
