/**
 * The API server's version (GET /version, its gitVersion: "v1.35.2", "v1.35.4-gke.1200"),
 * read only where a verdict depends on it: a StatefulSet that sets maxUnavailable, which
 * the controller honours only where the MaxUnavailableStatefulSet gate is on, and that
 * gate's default changed within 1.35 (workloads/statefulset/max-unavailable-gate.ts).
 * Optional: a failed or refused read leaves the version unknown, and the verdict says so.
 */
import { z } from 'zod';
import type { KubeClient } from '../client.js';

const VERSION_INFO = z.object({ gitVersion: z.string().max(100) });

export async function readServerVersion(client: KubeClient): Promise<string | undefined> {
  try {
    const parsed = VERSION_INFO.safeParse(await client.call({ verb: 'get', resource: 'version' }));
    return parsed.success ? parsed.data.gitVersion : undefined;
  } catch {
    return undefined;
  }
}
