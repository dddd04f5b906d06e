/**
 * The Dynamic Resource Allocation reads of a diagnosis (resource.k8s.io/v1), made
 * for a template that lists resource claims (four lists in the collector's second
 * round), or that asks for an extended resource a DeviceClass backs (the classes in
 * the second round, one request, and the other three lists in the third only when a
 * class backs the resource):
 *
 *   - ResourceClaims of every namespace (devices are consumed by claims of any
 *     namespace); when RBAC refuses that, the target namespace's claims in one more
 *     request, and device occupancy is recorded as unknown (coverage);
 *   - ResourceSlices (one cluster-wide list, up to 1,000: slices that are not
 *     node-local cannot be field-selected by node, and one list is fewer requests
 *     than one per eligible node);
 *   - DeviceClasses (few, cluster-scoped: the ones the requests name and the ones
 *     with an extendedResourceName);
 *   - the namespace's ResourceClaimTemplates.
 *
 * A cluster that does not serve resource.k8s.io/v1 (404: before 1.34, or DRA off)
 * has no DRA devices: the snapshot then carries no DRA objects, unless the template
 * lists claims, where the reads are recorded as not made.
 */
import type {
  DeviceClass,
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceSlice,
} from '../../diagnosis/k8s-dra.js';
import type { PodSpec } from '../../diagnosis/k8s.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';
import { classForExtendedResource } from '../../diagnosis/dra/needs.js';
import type {
  AccessProblem,
  CoverageGap,
  DraCoverage,
  DraObjects,
  ReadState,
} from '../../diagnosis/snapshot/types.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { listObjects, type ListResult } from '../list.js';
import { secondaryRead } from './secondary-read.js';

const CLAIM_PAGE = 500;
const CLAIM_PAGES = 4;
const SLICE_PAGE = 500;
const SLICE_PAGES = 2;
const CLASS_PAGE = 500;
const CLASS_PAGES = 4;

/** The template lists resource claims: DRA for sure. */
export function usesClaims(spec: PodSpec): boolean {
  return (spec.resourceClaims ?? []).length > 0;
}

/** The template makes a claim from a ResourceClaimTemplate. */
function namesTemplate(spec: PodSpec): boolean {
  return (spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName);
}

export interface DraReads {
  dra?: DraObjects;
  coverage?: DraCoverage;
  /** API requests made. */
  requests: number;
}

type Outcome<T> = { list: ListResult<T> } | { notServed: true } | { refused: true };

async function read<T>(problems: AccessProblem[], run: () => Promise<ListResult<T>>): Promise<Outcome<T>> {
  let notServed = false;
  const list = await secondaryRead(problems, undefined as ListResult<T> | undefined, async () => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) {
        notServed = true;
        return undefined;
      }
      throw error;
    }
  });
  if (list) return { list };
  return notServed ? { notServed: true } : { refused: true };
}

/**
 * For a template with extended resources and no claims: the DeviceClasses alone (one
 * request), to learn whether any of them backs a requested resource before reading
 * claims and slices. Undefined when the cluster does not serve resource.k8s.io/v1 or
 * the list was refused (then the extended resource is taken as a device plugin's).
 */
export async function readDeviceClasses(
  client: KubeClient,
  problems: AccessProblem[],
): Promise<ListResult<DeviceClass> | undefined> {
  const outcome = await read(problems, () =>
    listObjects<DeviceClass>(
      client,
      { resource: 'deviceclasses' },
      { limit: CLASS_PAGE, maxPages: CLASS_PAGES },
    ),
  );
  return 'list' in outcome ? outcome.list : undefined;
}

/** A DeviceClass backs one of the template's extended resources. */
export function backsExtendedResource(spec: PodSpec, classes: readonly DeviceClass[]): boolean {
  return extendedResources(spec).some((r) => classForExtendedResource(classes, r) !== undefined);
}

/**
 * Reads the DRA objects for a workload's diagnosis in `namespace`; `classes` when
 * they were listed already (readDeviceClasses).
 */
export async function readDra(
  client: KubeClient,
  namespace: string,
  spec: PodSpec,
  problems: AccessProblem[],
  gaps: CoverageGap[],
  knownClasses?: ListResult<DeviceClass>,
): Promise<DraReads> {
  const [claimsAll, slices, classes, templates] = await Promise.all([
    read(problems, () =>
      listObjects<ResourceClaim>(
        client,
        { resource: 'resourceclaims' },
        { limit: CLAIM_PAGE, maxPages: CLAIM_PAGES },
      ),
    ),
    read(problems, () =>
      listObjects<ResourceSlice>(
        client,
        { resource: 'resourceslices' },
        { limit: SLICE_PAGE, maxPages: SLICE_PAGES },
      ),
    ),
    knownClasses
      ? Promise.resolve<Outcome<DeviceClass>>({ list: knownClasses })
      : read(problems, () =>
          listObjects<DeviceClass>(
            client,
            { resource: 'deviceclasses' },
            { limit: CLASS_PAGE, maxPages: CLASS_PAGES },
          ),
        ),
    read(problems, () =>
      listObjects<ResourceClaimTemplate>(
        client,
        { resource: 'resourceclaimtemplates', namespace },
        { limit: 500 },
      ),
    ),
  ]);
  let requests = knownClasses ? 3 : 4;
  const outcomes = [claimsAll, slices, classes, templates];
  if (outcomes.every((o) => 'notServed' in o) && (spec.resourceClaims ?? []).length === 0) {
    return { requests };
  }
  const { claims, claimState, ownRead } = await claimsRead(client, namespace, problems, gaps, claimsAll);
  if (ownRead) requests += 1;
  const state = <T>(outcome: Outcome<T>, what: string, settle: string, matters = true): ReadState =>
    readState(gaps, outcome, what, settle, matters);
  const items = <T>(outcome: Outcome<T>): T[] => ('list' in outcome ? outcome.list.items : []);
  const coverage: DraCoverage = {
    claims: claimState,
    slices: state(slices, 'ResourceSlices', 'grant list on resourceslices (resource.k8s.io)'),
    classes: state(classes, 'DeviceClasses', 'grant list on deviceclasses (resource.k8s.io)'),
    templates: state(
      templates,
      `ResourceClaimTemplates in ${namespace}`,
      `grant list on resourceclaimtemplates (resource.k8s.io) in ${namespace}`,
      // Only a claim made from a template needs one: extended resources and shared claims use none.
      namesTemplate(spec),
    ),
  };
  return {
    dra: { claims, slices: items(slices), classes: items(classes), templates: items(templates) },
    coverage,
    requests,
  };
}

/**
 * The claims as read: every namespace's, or, when that list is capped or refused,
 * our own namespace's read whole (one more request, `ownRead`), which at least tells
 * what this workload's pods hold (and which of their claims are gone); other tenants'
 * stay unknown. A capped cluster-wide page proves neither.
 */
async function claimsRead(
  client: KubeClient,
  namespace: string,
  problems: AccessProblem[],
  gaps: CoverageGap[],
  claimsAll: Outcome<ResourceClaim>,
): Promise<{ claims: ResourceClaim[]; claimState: DraCoverage['claims']; ownRead: boolean }> {
  if ('list' in claimsAll && !claimsAll.list.truncated)
    return { claims: claimsAll.list.items, claimState: 'all', ownRead: false };
  if (!('list' in claimsAll) && !('refused' in claimsAll))
    return { claims: [], claimState: 'unread', ownRead: false };
  const capped = 'list' in claimsAll;
  const own = await read(problems, () =>
    listObjects<ResourceClaim>(
      client,
      { resource: 'resourceclaims', namespace },
      { limit: CLAIM_PAGE, maxPages: CLAIM_PAGES },
    ),
  );
  const seen = capped ? claimsAll.list.items : [];
  let claims = seen;
  let claimState: DraCoverage['claims'] = 'unread';
  if ('list' in own) {
    const key = (c: ResourceClaim): string => `${c.metadata.namespace ?? namespace}/${c.metadata.name}`;
    const ownKeys = new Set(own.list.items.map(key));
    claims = [...own.list.items, ...seen.filter((c) => !ownKeys.has(key(c)))];
    if (!own.list.truncated) claimState = 'namespace';
  }
  gaps.push(
    capped
      ? {
          about: 'dra',
          what: `ResourceClaims past the first ${seen.length}`,
          reason: 'capped',
          settle: 'kubectl get resourceclaims -A -o yaml, and diagnose from the dump',
        }
      : {
          about: 'dra',
          what: 'ResourceClaims of other namespaces',
          reason: 'forbidden',
          settle: 'grant list on resourceclaims (resource.k8s.io) cluster-wide',
        },
  );
  return { claims, claimState, ownRead: true };
}

/** How much of one DRA list was read; a capped or unread list that matters is a gap. */
function readState<T>(
  gaps: CoverageGap[],
  outcome: Outcome<T>,
  what: string,
  settle: string,
  matters: boolean,
): ReadState {
  if ('list' in outcome) {
    if (!outcome.list.truncated) return 'complete';
    if (!matters) return 'partial';
    gaps.push({
      about: 'dra',
      what: `${what} past the first ${outcome.list.items.length}`,
      reason: 'capped',
      settle,
    });
    return 'partial';
  }
  if (matters)
    gaps.push({ about: 'dra', what, reason: 'notServed' in outcome ? 'failed' : 'forbidden', settle });
  return 'unread';
}
