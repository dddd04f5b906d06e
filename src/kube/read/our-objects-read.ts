/**
 * Round 2 of a collection (collector.ts): the workload's revision objects and pods
 * (label selector, paged and bounded), the namespace's events, the eligible nodes when
 * the template alone says so, the claims, DRA objects, the GitOps owner's settings, the
 * API server's version when the kind asks for it, the namespace's ResourceQuotas, the
 * cluster's PriorityClasses when the template names one that is not a system class, and
 * the pods of any workload waiting for a node, all in parallel.
 */
import type { KubeEvent, Node, Pod } from '../../diagnosis/k8s.js';
import type { PersistentVolumeClaim } from '../../diagnosis/k8s-storage.js';
import type { PriorityClass, ResourceQuota } from '../../diagnosis/k8s-policy.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';
import { ownerGap } from '../../diagnosis/owner-target.js';
import { detectOwner } from '../../diagnosis/ownership.js';
import type {
  OwnerSettingsRead,
  RevisionObject,
  WorkloadObject,
  WorkloadRef,
} from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { listObjects, type ListResult } from '../list.js';
import type { ClaimsRead } from './claim-reads.js';
import type { CollectOptions, Reads } from './collect-reads.js';
import { readDeviceClasses, readDra, usesClaims } from './dra-reads.js';
import { readOwnerSettings } from './owner-settings-read.js';
import { namesClass, readPriorityClasses } from './priority-classes.js';
import { readResourceQuotas } from './quota-read.js';
import { readServerVersion } from './server-version.js';
import type { TemplatePlan } from './template-plan.js';

/** Our own pods per page, and pages: 20,000 pods at most. */
const OUR_PODS_PAGE = 10_000;
const OUR_PODS_PAGES = 2;
/** Event pages of 500 per namespace; a busier namespace keeps the first 1,500 events. */
const EVENT_PAGE = 500;
const EVENT_PAGES = 3;

/** Round 2's reads: the workload's revision objects, pods, events, volumes, early nodes, DRA, owner. */
export interface OurObjects {
  revisionList?: ListResult<RevisionObject>;
  podList?: ListResult<Pod>;
  eventList?: ListResult<KubeEvent>;
  early?: ListResult<Node>;
  pvcs: PersistentVolumeClaim[];
  draReads?: Awaited<ReturnType<typeof readDra>> | Awaited<ReturnType<typeof readDeviceClasses>>;
  ownerSettings?: OwnerSettingsRead;
  serverVersion?: string;
  resourceQuotas?: ResourceQuota[];
  /**
   * The cluster's PriorityClasses, read where the template names a class the system ones
   * do not cover: the priority a new pod is admitted with, before any pod of it exists.
   */
  priorityClasses?: PriorityClass[];
  /** Other workloads' pods waiting for a node, every namespace (forward/rivals.ts). */
  pendingList?: ListResult<Pod>;
}

/** Pods waiting for a node, cluster-wide, at most this many (one page). */
const PENDING_PAGE = 500;

export async function readOurObjects(
  reads: Reads,
  ref: WorkloadRef,
  object: WorkloadObject,
  plan: TemplatePlan,
  options: CollectOptions,
  claims: Promise<ClaimsRead>,
): Promise<OurObjects> {
  const { client, namespace, problems, gaps, optional } = reads;
  const { template, selector } = plan;
  const owner = detectOwner({
    group: WORKLOAD_NAMES[ref.kind].group,
    kind: ref.kind,
    metadata: object.metadata,
  });
  const asksVersion = workloadKind(ref.kind).readsServerVersion?.(object) === true;
  const [
    revisionList,
    podList,
    eventList,
    early,
    pvcList,
    draReads,
    ownerSettings,
    serverVersion,
    quotas,
    classes,
    pendingList,
  ] = await Promise.all([
    optional(() =>
      listObjects<RevisionObject>(client, {
        resource: workloadKind(ref.kind).revisionObjects.resource,
        namespace,
        query: { labelSelector: selector },
      }),
    ),
    // Paged and bounded: a DaemonSet on 5,000 nodes has 5,000 pods (one page); past
    // OUR_PODS_PAGE × OUR_PODS_PAGES the pods are 'partial' and the gap says so.
    optional(() =>
      listObjects<Pod>(
        client,
        { resource: 'pods', namespace, query: { labelSelector: selector } },
        { limit: OUR_PODS_PAGE, maxPages: OUR_PODS_PAGES },
      ),
    ),
    optional(() =>
      listObjects<KubeEvent>(
        client,
        { resource: 'events', namespace },
        { limit: EVENT_PAGE, maxPages: EVENT_PAGES },
      ),
    ),
    plan.eligibleEarly ? reads.listNodes(plan.nodeSelector) : Promise.resolve(undefined),
    claims,
    usesClaims(template)
      ? readDra(client, namespace, template, problems, gaps)
      : extendedResources(template).length > 0
        ? readDeviceClasses(client, problems)
        : Promise.resolve(undefined),
    readOwnerSettings(client, owner, { argocdNamespace: options.argocdNamespace }),
    asksVersion ? readServerVersion(client) : Promise.resolve(undefined),
    readResourceQuotas(client, namespace, gaps),
    namesClass(template) ? readPriorityClasses(client) : Promise.resolve(undefined),
    // Pods of any workload waiting for a node compete with ours for room: one list by
    // the apiserver's nodeName index (unbound pods only), not a read of every pod.
    optional(() =>
      listObjects<Pod>(
        client,
        { resource: 'pods', query: { fieldSelector: 'spec.nodeName=' } },
        { limit: PENDING_PAGE, maxPages: 1 },
      ),
    ),
  ]);
  if (pendingList?.truncated)
    gaps.push({
      about: 'neighbours',
      what: `pods waiting for a node past the first ${pendingList.items.length}`,
      reason: 'capped',
      settle: 'kubectl get pods -A --field-selector spec.nodeName= -o yaml, and diagnose from the dump',
    });
  const ownerSettingsGap = ownerSettings ? ownerGap(ownerSettings) : undefined;
  if (ownerSettingsGap) gaps.push(ownerSettingsGap);
  return {
    ...(revisionList ? { revisionList } : {}),
    ...(podList ? { podList } : {}),
    ...(eventList ? { eventList } : {}),
    ...(early ? { early } : {}),
    pvcs: pvcList.claims,
    ...(draReads ? { draReads } : {}),
    ...(ownerSettings ? { ownerSettings } : {}),
    ...(serverVersion ? { serverVersion } : {}),
    ...(quotas ? { resourceQuotas: quotas } : {}),
    ...(classes ? { priorityClasses: classes } : {}),
    ...(pendingList ? { pendingList } : {}),
  };
}
