/** Manifests check judges in tests (judged from a dump: src/check/dump-source.ts). */
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';

type Json = Record<string, unknown>;

/** Deployment vision/tracker, one replica of image tracker:2 with `container`'s fields and `volumes`. */
export function trackerManifest(container: Json, volumes?: Json[]): WorkloadObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'tracker', namespace: 'vision' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'tracker' } },
      template: {
        metadata: { labels: { app: 'tracker' } },
        spec: {
          containers: [{ name: 'a', image: 'tracker:2', ...container }],
          ...(volumes ? { volumes } : {}),
        },
      },
    },
  } as unknown as WorkloadObject;
}
