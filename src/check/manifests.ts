/**
 * The manifests `check` judges: the output of `helm template` or `kustomize build`,
 * YAML or JSON, one document or many, `List`s of items. Each workload keeps where it was
 * written (file, line, column), so a finding lands on its line in a pull request
 * (SARIF). Pure: text in, objects out; reading files is manifest-files.ts.
 */
import { isMap, isScalar, isSeq, LineCounter, type Document, type Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { MAX_DOCUMENT_TOKENS, oversizedDocument, yamlDocuments } from './yaml-documents.js';
import {
  titlesPhrase,
  WORKLOAD_KINDS,
  WORKLOAD_NAMES,
  type WorkloadKind,
} from '../diagnosis/workload-ref.js';
import type { NamedObject, WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { LimitRange, PriorityClass, ResourceQuota } from '../diagnosis/k8s-policy.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { parseExact } from '../diagnosis/base/quantity.js';

export interface SourcePosition {
  /** As given on the command line ("-" for stdin); SARIF makes it a URI. */
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  /** The template it was rendered from, where `helm template` says so (`# Source: chart/templates/x.yaml`). */
  template?: string;
}

interface ManifestWorkload {
  kind: WorkloadKind;
  object: WorkloadObject;
  at: SourcePosition;
  /** Where the text writes a field of this object (fieldAt). */
  locate: Locate;
}

/**
 * Where the text writes the field at `path` (`spec.template.spec.containers[0].image`;
 * a key with dots, such as `nvidia.com/gpu`, as written): the key's position, or the
 * nearest written parent's with `exact` false (a field the manifest removes, or one
 * written through a merge key); undefined where not even the object's first key matches.
 */
export type Locate = (path: string) => (SourcePosition & { exact: boolean }) | undefined;

export interface ManifestSet {
  workloads: ManifestWorkload[];
  /** Documents of other kinds (Services, ConfigMaps, …): counted, not judged. */
  others: number;
  /** PriorityClasses among them: the change creates them, so a template may name them. */
  priorityClasses: PriorityClass[];
  /**
   * ResourceQuotas and LimitRanges among them: kubectl applies them with the workloads,
   * so quota and limit admission judge the new pods with them.
   */
  resourceQuotas: ResourceQuota[];
  limitRanges: LimitRange[];
  /** ConfigMaps, Secrets and ServiceAccounts among them, by name: a template may need them. */
  created: (NamedObject & { namespace?: string })[];
}

/** A set with nothing in it yet. */
export function emptyManifestSet(): ManifestSet {
  return { workloads: [], others: 0, priorityClasses: [], resourceQuotas: [], limitRanges: [], created: [] };
}

/** Bad input: exit 2 naming the file and line. */
export class ManifestError extends Error {
  override name = 'ManifestError';
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** What a workload needs to be judged; the rest is kept as written. */
const workloadShape = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.object({
    name: z.string().max(253).regex(DNS_SUBDOMAIN, 'is not a valid name'),
    namespace: z.string().max(63).regex(DNS_LABEL, 'is not a valid namespace').optional(),
  }),
  spec: z.object({
    replicas: z.number().int().min(0).optional(),
    template: z.object({
      metadata: z.record(z.string(), z.unknown()).optional(),
      spec: z.object({ containers: z.array(z.object({ name: z.string() }).loose()).min(1) }).loose(),
    }),
  }),
});

/** A document that holds an Argo Rollout's template elsewhere (workloadRef) has no spec.template. */
const rolloutWithRef = z.object({
  spec: z.object({ workloadRef: z.object({ name: z.string() }).loose() }).loose(),
});

/** One of our kinds by its name, with its API, and the apiVersion given; undefined for anything else. */
function named(apiVersion: unknown, kind: unknown) {
  if (typeof kind !== 'string' || typeof apiVersion !== 'string') return undefined;
  const found = WORKLOAD_KINDS.find((k) => k === kind);
  return found ? { kind: found, api: WORKLOAD_NAMES[found], apiVersion } : undefined;
}

function kindOf(apiVersion: unknown, kind: unknown): WorkloadKind | undefined {
  const ours = named(apiVersion, kind);
  return ours && ours.apiVersion.split('/')[0] === ours.api.group ? ours.kind : undefined;
}

/** API groups Kubernetes itself served workloads from: a kind of ours there is ours, at the wrong version. */
const KUBERNETES_WORKLOAD_GROUPS = new Set(['', 'apps', 'extensions']);

/**
 * Why kubectl would refuse one of our kinds at this apiVersion (`apps/v1beta1`,
 * `extensions/v1beta1`, removed in Kubernetes 1.16; `v1`, never served), or undefined. A
 * kind of the same name in another group is someone else's resource, not judged.
 */
function unservedVersion(given: unknown, kindName: unknown): string | undefined {
  const ours = named(given, kindName);
  if (!ours) return undefined;
  const { kind, api, apiVersion } = ours;
  const served = `${api.group}/${api.version}`;
  if (apiVersion === served) return undefined;
  const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
  if (group !== api.group && !KUBERNETES_WORKLOAD_GROUPS.has(group)) return undefined;
  return `${kind} is served as apiVersion ${served}, not ${apiVersion}: kubectl apply refuses it (no matches for kind "${kind}" in version "${apiVersion}")`;
}

/**
 * A workload object of one of the four kinds, checked as `check` needs it, or the
 * reason it is not one (an admission request's object goes through here too).
 */
export function asWorkload(
  value: unknown,
): { kind: WorkloadKind; object: WorkloadObject } | { problem: string; path?: (string | number)[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'not an object' };
  const object = value as Record<string, unknown>;
  const kind = kindOf(object['apiVersion'], object['kind']);
  if (!kind) return { problem: `not a ${titlesPhrase('', 'or')}` };
  if (workloadKind(kind).templateRef && !hasTemplate(object) && rolloutWithRef.safeParse(object).success)
    return {
      problem: `a ${kind} that takes its template from spec.workloadRef, which check does not follow yet`,
    };
  const parsed = workloadShape.safeParse(object);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    return { problem: `${kind} ${where ? `${where} ` : ''}${issue?.message ?? 'is not valid'}` };
  }
  const quantity = badQuantity(parsed.data.spec.template.spec);
  if (quantity) return { problem: `${kind} ${quantity.problem}`, path: quantity.path };
  return { kind, object: object as unknown as WorkloadObject };
}

/**
 * A resource amount the API server refuses ("quantities must match the regular
 * expression …"): the apply fails, so check says so at its line instead of judging the
 * pod as if it asked for nothing.
 */
function badQuantity(
  spec: Record<string, unknown>,
): { problem: string; path: (string | number)[] } | undefined {
  const lists = ['initContainers', 'containers'] as const;
  for (const list of lists) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const [index, container] of containers.entries()) {
      const resources = (container as { resources?: unknown } | null)?.resources;
      for (const field of ['requests', 'limits'] as const) {
        const amounts = (resources as Record<string, unknown> | undefined)?.[field];
        if (typeof amounts !== 'object' || amounts === null) continue;
        for (const [resource, amount] of Object.entries(amounts)) {
          const valid = (typeof amount === 'string' || typeof amount === 'number') && parseExact(amount);
          if (valid) continue;
          const path = ['spec', 'template', 'spec', list, index, 'resources', field, resource];
          return {
            problem: `${path.join('.')} is not a quantity (${JSON.stringify(amount) ?? String(amount)}): the API server refuses it`,
            path,
          };
        }
      }
    }
  }
  return undefined;
}

function position(file: string, counter: LineCounter, node: YamlNode | null | undefined): SourcePosition {
  const offset = node?.range?.[0] ?? 0;
  const { line, col } = counter.linePos(offset);
  return { file, line, column: col };
}

/**
 * The workloads of one text, with their positions.
 * @throws ManifestError for text that is not YAML or JSON, or a workload without a name or template.
 * @example parseManifests(readFileSync('out.yaml', 'utf8'), 'out.yaml').workloads[0].at.line
 */
export function parseManifests(text: string, file: string): ManifestSet {
  const oversized = oversizedDocument(text);
  if (oversized !== undefined) {
    const line = text.slice(0, oversized).split('\n').length;
    throw new ManifestError(
      `${file}:${line}: the document holds more than ${MAX_DOCUMENT_TOKENS.toLocaleString('en-US')} YAML tokens, more than check reads in one document (split it, or check its workloads alone)`,
    );
  }
  const counter = new LineCounter();
  const set = emptyManifestSet();
  for (const doc of yamlDocuments(text, counter)) {
    const error = doc.errors[0];
    if (error) {
      const { line } = counter.linePos(error.pos[0]);
      throw new ManifestError(`${file}:${line}: not YAML or JSON: ${error.message.split('\n')[0] ?? ''}`);
    }
    const value = documentValue(doc, file, counter);
    if (value === null || value === undefined) continue;
    const comment = [doc.commentBefore, doc.contents?.commentBefore].filter(Boolean).join('\n');
    const source = HELM_SOURCE.exec(comment)?.[1]?.trim();
    collect(value, doc.contents, file, counter, set, source);
  }
  return set;
}

/**
 * A document as a value. Aliases are resolved here, so their faults surface here: a
 * document that repeats aliased values beyond any real manifest (an alias bomb), and an
 * alias whose anchor is not set before it (anchors do not carry from one `---` document
 * to the next). Both are bad input at a line, like a syntax error, never an internal error.
 */
function documentValue(doc: Document.Parsed, file: string, counter: LineCounter): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const { line } = counter.linePos(doc.range?.[0] ?? 0);
    const why = /alias count/i.test(error.message)
      ? 'repeats aliased values beyond any real manifest (a YAML alias bomb?)'
      : /unresolved alias/i.test(error.message)
        ? 'uses an alias whose anchor is not set before it (YAML anchors do not carry from one document to the next)'
        : `not YAML or JSON: ${error.message.split('\n')[0] ?? ''}`;
    throw new ManifestError(`${file}:${line}: the document ${why}`);
  }
}

/** The comment `helm template` writes above each document. */
const HELM_SOURCE = /^ ?Source: (\S+)\s*$/m;

function collect(
  value: unknown,
  node: YamlNode | null | undefined,
  file: string,
  counter: LineCounter,
  set: ManifestSet,
  template?: string,
): void {
  const at = { ...position(file, counter, node), ...(template ? { template } : {}) };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ManifestError(`${file}:${at.line}: expected a Kubernetes object (a mapping with kind)`);
  const object = value as Record<string, unknown>;
  const kindName = object['kind'];
  // `kind: List` and the typed lists kubectl writes (DeploymentList, …): each item on its own line.
  if (typeof kindName === 'string' && kindName.endsWith('List') && Array.isArray(object['items'])) {
    const itemsNode = isMap(node) ? node.get('items', true) : undefined;
    const items = object['items'] as unknown[];
    items.forEach((item, i) => {
      const itemNode = isSeq(itemsNode) ? (itemsNode.items[i] as YamlNode | undefined) : undefined;
      collect(item, itemNode ?? node, file, counter, set, template);
    });
    return;
  }
  // kubectl refuses an object without them ("apiVersion not set"): so does check, rather
  // than count a Deployment whose apiVersion was lost as an object it does not judge.
  for (const field of ['apiVersion', 'kind'] as const) {
    const stated = object[field];
    if (typeof stated !== 'string' || stated === '')
      throw new ManifestError(
        `${file}:${at.line}: ${field} is missing: every object kubectl applies states its apiVersion and kind`,
      );
  }
  const unserved = unservedVersion(object['apiVersion'], kindName);
  if (unserved) throw new ManifestError(`${file}:${at.line}: ${unserved}`);
  if (!kindOf(object['apiVersion'], kindName)) {
    set.others += 1;
    if (kindName === 'PriorityClass' && typeof object['value'] === 'number')
      set.priorityClasses.push(object as unknown as PriorityClass);
    if (object['apiVersion'] === 'v1' && isObjectWithMeta(object)) {
      if (kindName === 'ResourceQuota') set.resourceQuotas.push(object as unknown as ResourceQuota);
      if (kindName === 'LimitRange') set.limitRanges.push(object as unknown as LimitRange);
      if (kindName === 'ConfigMap' || kindName === 'Secret' || kindName === 'ServiceAccount') {
        const { name, namespace } = object['metadata'] as { name?: string; namespace?: string };
        if (name) set.created.push({ kind: kindName, name, ...(namespace ? { namespace } : {}) });
      }
    }
    return;
  }
  const workload = asWorkload(object);
  if ('problem' in workload) {
    const line = workload.path ? lineOf(node, workload.path, counter) : undefined;
    throw new ManifestError(`${file}:${line ?? at.line}: ${workload.problem}`);
  }
  set.workloads.push({ ...workload, at, locate: locator(node, file, counter, template) });
}

function locator(
  node: YamlNode | null | undefined,
  file: string,
  counter: LineCounter,
  template: string | undefined,
): Locate {
  return (path) => {
    const found = fieldAt(node, path);
    if (!found) return undefined;
    return {
      ...position(file, counter, found.node),
      ...(template ? { template } : {}),
      exact: found.exact,
    };
  };
}

/** The node that writes `rest` under `node` (a mapping's key, a list's item), or its nearest written parent. */
function fieldAt(
  node: YamlNode | null | undefined,
  rest: string,
): { node: YamlNode; exact: boolean } | undefined {
  if (isSeq(node)) {
    const index = /^\[(\d+)\]\.?/.exec(rest);
    const item = index ? (node.items[Number(index[1])] as YamlNode | undefined) : undefined;
    if (!index || !item) return undefined;
    const after = rest.slice(index[0].length);
    if (after === '') return { node: item, exact: true };
    return fieldAt(item, after) ?? { node: item, exact: false };
  }
  if (!isMap(node)) return undefined;
  // The longest key that starts the path first: `nvidia.com/gpu` before a key `nvidia`.
  const pairs = node.items
    .flatMap((pair) => (isScalar(pair.key) ? [{ key: String(pair.key.value), pair }] : []))
    .sort((a, b) => b.key.length - a.key.length);
  for (const { key, pair } of pairs) {
    const keyNode = pair.key as YamlNode;
    if (rest === key) return { node: keyNode, exact: true };
    if (!rest.startsWith(`${key}.`) && !rest.startsWith(`${key}[`)) continue;
    const after = rest.slice(key.length).replace(/^\./, '');
    return fieldAt(pair.value as YamlNode | null, after) ?? { node: keyNode, exact: false };
  }
  return undefined;
}

/** The line of the value at `path` under `node`, where the text writes it there (not through a merge key). */
function lineOf(
  node: YamlNode | null | undefined,
  path: (string | number)[],
  counter: LineCounter,
): number | undefined {
  const found = isMap(node) ? (node.getIn(path, true) as YamlNode | undefined) : undefined;
  const offset = found?.range?.[0];
  return offset === undefined ? undefined : counter.linePos(offset).line;
}

function hasTemplate(object: Record<string, unknown>): boolean {
  const spec = object['spec'];
  return typeof spec === 'object' && spec !== null && 'template' in spec;
}

/** A core object whose metadata is an object (a quota or limit range to judge pods with). */
function isObjectWithMeta(object: Record<string, unknown>): boolean {
  const meta = object['metadata'];
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta);
}
