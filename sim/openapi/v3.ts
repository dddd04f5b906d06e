/**
 * OpenAPI v3 documents (/openapi/v3 and /openapi/v3/<api/v1|apis/group/version>), enough for
 * kubectl and helm to validate on the server's side:
 * - `kubectl apply` / `create -f` (validation on, the default) ask the root, then the
 *   group-version document, and look for a PATCH operation tagged with the kind's
 *   `x-kubernetes-group-version-kind` that takes the `fieldValidation` query parameter
 *   (k8s.io/kubectl/pkg/util/openapi QueryParamVerifierV3). Found: they send
 *   `fieldValidation=Strict` and leave the checking to the server; not found, they fall
 *   back to OpenAPI v2 (protobuf only) and fail "failed to download openapi".
 * - The component schemas carry no `x-kubernetes-group-version-kind`, on purpose: kubectl
 *   apply then computes its three-way strategic merge patch from its own built-in types
 *   (the same patch metadata the real schemas carry) instead of from schemas that would
 *   lack `x-kubernetes-patch-merge-key`, and uses a JSON merge patch for custom resources.
 * The simulator does not enforce `fieldValidation=Strict` (an unknown field is stored, not
 * refused), but for ValidatingWebhookConfigurations (sim/webhooks/fields.ts): README,
 * "Development".
 */
import { createHash } from 'node:crypto';
import { isCustomResource, servedTypes, type ResourceType, type Served } from '../resources.js';
import { groupVersions } from '../server/request-info.js';

const gvPath = (group: string, version: string): string =>
  group === '' ? `api/${version}` : `apis/${group}/${version}`;

const queryParam = (name: string): unknown => ({
  name,
  in: 'query',
  schema: { type: 'string', uniqueItems: true },
});
const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation'].map(queryParam);

function schemaName(rt: ResourceType): string {
  return `${rt.group === '' ? 'core' : rt.group}.${rt.version}.${rt.kind}`;
}

function operations(rt: ResourceType): Record<string, unknown> {
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const ref = { $ref: `#/components/schemas/${schemaName(rt)}` };
  const body = (types: readonly string[]): unknown => ({
    content: Object.fromEntries(types.map((t) => [t, { schema: ref }])),
    required: true,
  });
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } };
  const op = (action: string, extra: Record<string, unknown> = {}): unknown => ({
    operationId: `${action}${rt.kind}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
    responses: ok,
    ...extra,
  });
  const patchTypes = [
    'application/json-patch+json',
    'application/merge-patch+json',
    ...(isCustomResource(rt) ? [] : ['application/strategic-merge-patch+json']),
    'application/apply-patch+yaml',
  ];
  const base = `/${gvPath(rt.group, rt.version)}${rt.namespaced ? '/namespaces/{namespace}' : ''}/${rt.plural}`;
  return {
    [base]: {
      get: op('list'),
      post: op('post', { parameters: WRITE_PARAMS, requestBody: body(['*/*']) }),
    },
    [`${base}/{name}`]: {
      get: op('get'),
      put: op('put', { parameters: WRITE_PARAMS, requestBody: body(['*/*']) }),
      patch: op('patch', {
        parameters: [...WRITE_PARAMS, queryParam('force')],
        requestBody: body(patchTypes),
      }),
      delete: op('delete', { parameters: [queryParam('dryRun')] }),
    },
  };
}

function groupVersionDocument(group: string, version: string, served: Served): unknown {
  const types = servedTypes(served).filter((rt) => rt.group === group && rt.version === version);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.34.1-sim' },
    paths: Object.assign({}, ...types.map(operations)) as Record<string, unknown>,
    components: {
      schemas: Object.fromEntries(
        types.map((rt) => [
          schemaName(rt),
          {
            type: 'object',
            description: `${rt.kind} (fields not modelled by the simulator)`,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        ]),
      ),
    },
  };
}

const hashOf = (doc: unknown): string =>
  createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();

/** The document at `path` (`/openapi/v3...`), or undefined when there is none. */
export function openApiV3Document(path: string, served: Served): unknown {
  const gvs = groupVersions(served);
  if (path === '/openapi/v3') {
    return {
      paths: Object.fromEntries(
        gvs.map(({ group, version }) => {
          const p = gvPath(group, version);
          const hash = hashOf(groupVersionDocument(group, version, served));
          return [p, { serverRelativeURL: `/openapi/v3/${p}?hash=${hash}` }];
        }),
      ),
    };
  }
  const rest = path.replace(/^\/openapi\/v3\//, '');
  const found = gvs.find(({ group, version }) => gvPath(group, version) === rest);
  return found ? groupVersionDocument(found.group, found.version, served) : undefined;
}
