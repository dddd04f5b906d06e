/**
 * Typed reads on top of KubeClient: one object, or a list followed through
 * `continue` tokens up to a page cap (so a huge namespace cannot make one
 * diagnosis unbounded).
 */
import { z } from 'zod';
import type { ApiCall } from './api-paths.js';
import type { KubeClient } from './client.js';
import { KubeApiError } from './errors.js';

const objectSchema = z.object({ metadata: z.object({ name: z.string().optional() }).loose() }).loose();

const listSchema = z
  .object({
    items: z.array(objectSchema).nullable().optional(),
    metadata: z
      .object({ continue: z.string().optional(), resourceVersion: z.string().optional() })
      .loose()
      .optional(),
  })
  .loose();

export interface ListResult<T> {
  items: T[];
  /** True when a continue token was left unfollowed (page cap reached). */
  truncated: boolean;
  /** The list's resourceVersion, for a watch that follows. */
  resourceVersion?: string;
  /** API requests made. */
  requests: number;
}

/** GET one object; validates it looks like a Kubernetes object before trusting the type. */
export async function getObject<T>(client: KubeClient, call: Omit<ApiCall, 'verb'>): Promise<T> {
  const body = await client.call<unknown>({ ...call, verb: 'get' });
  const parsed = objectSchema.safeParse(body);
  if (!parsed.success) {
    throw new KubeApiError(`the API server returned something that is not a ${call.resource} object`, 200, {
      verb: 'get',
      resource: call.resource,
      namespace: call.namespace,
      name: call.name,
    });
  }
  return parsed.data as T;
}

/** GET one object, or undefined when the API server says it does not exist (404). */
export async function getObjectIfExists<T>(
  client: KubeClient,
  call: Omit<ApiCall, 'verb'>,
): Promise<T | undefined> {
  try {
    return await getObject<T>(client, call);
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * LIST with paging: `limit` per page, at most `maxPages` pages. A continue token that
 * expired (410 Gone) ends the walk with what we have, marked truncated.
 */
export async function listObjects<T>(
  client: KubeClient,
  call: Omit<ApiCall, 'verb'>,
  paging: { limit?: number; maxPages?: number } = {},
): Promise<ListResult<T>> {
  const items: T[] = [];
  const maxPages = paging.maxPages ?? 1;
  let token: string | undefined;
  let resourceVersion: string | undefined;
  let requests = 0;
  for (let page = 0; page < maxPages; page += 1) {
    let body: unknown;
    try {
      body = await client.call<unknown>({
        ...call,
        verb: 'list',
        query: { ...call.query, limit: paging.limit, continue: token },
      });
    } catch (error) {
      requests += 1;
      if (error instanceof KubeApiError && error.status === 410 && page > 0) {
        return { items, truncated: true, resourceVersion, requests };
      }
      throw error;
    }
    requests += 1;
    const parsed = listSchema.safeParse(body);
    if (!parsed.success) {
      throw new KubeApiError(`the API server returned something that is not a ${call.resource} list`, 200, {
        verb: 'list',
        resource: call.resource,
        namespace: call.namespace,
      });
    }
    for (const item of parsed.data.items ?? []) items.push(item as T);
    resourceVersion ??= parsed.data.metadata?.resourceVersion;
    token = parsed.data.metadata?.continue || undefined;
    if (!token) return { items, truncated: false, resourceVersion, requests };
  }
  return { items, truncated: true, resourceVersion, requests };
}
