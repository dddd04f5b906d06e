import type { ScanHit } from './early-warning.js';
import type { KubeClient } from '../kube/client.js';
import { scanCluster, type ScanReport } from '../kube/scan.js';

/** Flattens a scan report into one hit per Deployment and finding. */
export function scanHits(report: Pick<ScanReport, 'entries'>): ScanHit[] {
  return report.entries.flatMap((entry) =>
    entry.findings.map((f) => ({
      namespace: entry.namespace,
      name: entry.name,
      code: f.code,
      summary: f.summary,
    })),
  );
}

/** The early-warning watch's scan: a targeted `scanCluster` of one namespace. */
export function namespaceScanner(client: KubeClient): (namespace: string) => Promise<ScanHit[]> {
  return async (namespace) => scanHits(await scanCluster(client, { namespace }));
}
