/**
 * The ResourceQuotas of the workload's namespace, one list (a namespace holds a handful).
 * The read is optional and quiet: refused, failed or past one page, the quotas are left
 * unread (a coverage gap that says what to grant), and the verdicts then learn of a
 * quota only from its refusal of a pod, as they did before this read existed. No
 * AccessDenied finding: a missing grant here hides nothing the diagnosis claims.
 */
import type { LimitRange, ResourceQuota } from '../../diagnosis/k8s-policy.js';
import type { CoverageGap } from '../../diagnosis/snapshot/types.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { listObjects } from '../list.js';

/** More quotas than this in one namespace and they count as not read. */
const QUOTA_PAGE = 100;

export async function readResourceQuotas(
  client: KubeClient,
  namespace: string,
  gaps: CoverageGap[],
): Promise<ResourceQuota[] | undefined> {
  const gap = (reason: CoverageGap['reason']): undefined => {
    gaps.push({
      about: 'quotas',
      what: `ResourceQuotas in ${namespace}`,
      reason,
      settle:
        reason === 'forbidden'
          ? `grant list on resourcequotas in ${namespace}`
          : `kubectl get resourcequotas -n ${namespace} -o yaml`,
    });
    return undefined;
  };
  try {
    const list = await listObjects<ResourceQuota>(
      client,
      { resource: 'resourcequotas', namespace },
      { limit: QUOTA_PAGE, maxPages: 1 },
    );
    return list.truncated ? gap('capped') : list.items;
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    return gap(error.isAccessDenied ? 'forbidden' : 'failed');
  }
}

/**
 * The LimitRanges of the namespace (check: their defaults fill a template's missing
 * requests before quota admission looks), read as the quotas are: quiet, a gap when not.
 */
export async function readLimitRanges(
  client: KubeClient,
  namespace: string,
  gaps: CoverageGap[],
): Promise<LimitRange[] | undefined> {
  const gap = (reason: CoverageGap['reason']): undefined => {
    gaps.push({
      about: 'quotas',
      what: `LimitRanges in ${namespace}`,
      reason,
      settle:
        reason === 'forbidden'
          ? `grant list on limitranges in ${namespace}`
          : `kubectl get limitranges -n ${namespace} -o yaml`,
    });
    return undefined;
  };
  try {
    const list = await listObjects<LimitRange>(
      client,
      { resource: 'limitranges', namespace },
      { limit: QUOTA_PAGE, maxPages: 1 },
    );
    return list.truncated ? gap('capped') : list.items;
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    return gap(error.isAccessDenied ? 'forbidden' : 'failed');
  }
}
