/**
 * Whether DeviceTaintRule is served, from discovery: v1 (GA, 1.37) first, then v1beta2
 * (beta, off by default in 1.36); a version that is not served answers 404; any other
 * failure leaves the answer unknown (no taint-device plan), never "served".
 */
import { describe, expect, it } from 'vitest';
import type { ApiCall } from '../../src/kube/api-paths.js';
import { pathFor } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { discoverDeviceTaintRules } from '../../src/kube/read/device-taint-api.js';
import { KubeApiError } from '../../src/kube/errors.js';

/** A client whose discovery documents are `served` (group-version -> resource names); others 404, or fail with `status`. */
function client(served: Record<string, string[]>, status?: number): KubeClient & { paths: string[] } {
  const paths: string[] = [];
  return {
    server: 'https://127.0.0.1:6443',
    context: 'test',
    namespace: undefined,
    paths,
    call: <T>(call: ApiCall): Promise<T> => {
      const path = pathFor(call);
      paths.push(path);
      const describe = { verb: call.verb, resource: call.resource };
      if (status) return Promise.reject(new KubeApiError('forbidden', status, describe));
      const names = served[path];
      if (!names)
        return Promise.reject(
          new KubeApiError('the server could not find the requested resource', 404, describe),
        );
      return Promise.resolve({ kind: 'APIResourceList', resources: names.map((name) => ({ name })) } as T);
    },
    text: () => Promise.reject(new Error('unused')),
    watch: () => Promise.reject(new Error('unused')),
  };
}

describe('DeviceTaintRule discovery', () => {
  it('finds GA v1 and asks nothing more', async () => {
    const c = client({ '/apis/resource.k8s.io/v1': ['resourceclaims', 'devicetaintrules'] });
    expect(await discoverDeviceTaintRules(c)).toBe('resource.k8s.io/v1');
    expect(c.paths).toEqual(['/apis/resource.k8s.io/v1']);
  });

  it('finds beta v1beta2 where v1 serves the rest of DRA but not DeviceTaintRule (1.36 with the feature on)', async () => {
    const c = client({
      '/apis/resource.k8s.io/v1': ['resourceclaims', 'resourceslices'],
      '/apis/resource.k8s.io/v1beta2': ['resourceclaims', 'devicetaintrules'],
    });
    expect(await discoverDeviceTaintRules(c)).toBe('resource.k8s.io/v1beta2');
  });

  it('says not served where no version lists it, or the group is not served at all', async () => {
    expect(await discoverDeviceTaintRules(client({ '/apis/resource.k8s.io/v1': ['resourceclaims'] }))).toBe(
      'not-served',
    );
    expect(await discoverDeviceTaintRules(client({}))).toBe('not-served');
  });

  it('leaves it unknown when discovery fails otherwise', async () => {
    expect(await discoverDeviceTaintRules(client({}, 403))).toBeUndefined();
    expect(await discoverDeviceTaintRules(client({}, 503))).toBeUndefined();
  });
});

describe('DeviceTaintRule paths', () => {
  it('go to the version the plan names; other resources ignore it', () => {
    expect(pathFor({ verb: 'create', resource: 'devicetaintrules', version: 'v1beta2' })).toBe(
      '/apis/resource.k8s.io/v1beta2/devicetaintrules',
    );
    expect(
      pathFor({ verb: 'delete', resource: 'devicetaintrules', name: 'rollout-doctor-unhealthy-0a1b' }),
    ).toBe('/apis/resource.k8s.io/v1/devicetaintrules/rollout-doctor-unhealthy-0a1b');
    expect(pathFor({ verb: 'get', resource: 'pods', namespace: 'vision', version: 'v1beta2' })).toBe(
      '/api/v1/namespaces/vision/pods',
    );
  });
});
