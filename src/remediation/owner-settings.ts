/**
 * What the owner's settings object says about reverting a live change, read only from
 * the fields upstream defines (pure):
 * - Argo CD Application (argoproj.io/v1alpha1): `spec.syncPolicy.automated` (automated
 *   sync is on when the object is present and `enabled` is absent or true, as
 *   SyncPolicy.IsAutomatedSyncEnabled; `enabled` exists from Argo CD 3.1), its
 *   `selfHeal`; `spec.ignoreDifferences` entries matching the Deployment (group and kind
 *   as globs, name and namespace exact or empty, as the ignore normalizer matches them)
 *   with `jsonPointers`, `jqPathExpressions` and `managedFieldsManagers`;
 *   `spec.syncPolicy.syncOptions` RespectIgnoreDifferences=true; and `status.resources`,
 *   the objects it manages.
 * - Flux Kustomization (kustomize.toolkit.fluxcd.io/v1): `spec.suspend`, `spec.force`,
 *   `spec.interval`.
 * - Flux HelmRelease (helm.toolkit.fluxcd.io/v2): `spec.suspend`,
 *   `spec.driftDetection.mode` (enabled | warn | disabled, disabled when unset) and
 *   `spec.driftDetection.ignore` ({paths: JSON pointers, target: selector}).
 * A field this cannot evaluate (a jq expression beyond a plain path, a target selector
 * by labels) is "maybe": the verdict stays unknown, never more confident than the object.
 */
import { z } from 'zod';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import type { OwnerSettingsRead } from '../diagnosis/snapshot/types.js';
import { OUR_FIELD_MANAGER } from '../diagnosis/ownership.js';
import { parsePointer } from './json-pointer.js';

type Coverage = 'yes' | 'no' | 'maybe';

const argoSchema = z.looseObject({
  spec: z
    .looseObject({
      syncPolicy: z
        .looseObject({
          automated: z
            .looseObject({ selfHeal: z.boolean().optional(), enabled: z.boolean().optional() })
            .nullable()
            .optional(),
          syncOptions: z.array(z.string()).nullable().optional(),
        })
        .nullable()
        .optional(),
      ignoreDifferences: z
        .array(
          z.looseObject({
            group: z.string().optional(),
            kind: z.string().optional(),
            name: z.string().optional(),
            namespace: z.string().optional(),
            jsonPointers: z.array(z.string()).nullable().optional(),
            jqPathExpressions: z.array(z.string()).nullable().optional(),
            managedFieldsManagers: z.array(z.string()).nullable().optional(),
          }),
        )
        .nullable()
        .optional(),
    })
    .optional(),
  status: z
    .looseObject({
      resources: z
        .array(
          z.looseObject({
            group: z.string().optional(),
            kind: z.string().optional(),
            namespace: z.string().optional(),
            name: z.string().optional(),
          }),
        )
        .nullable()
        .optional(),
    })
    .optional(),
});

const kustomizationSchema = z.looseObject({
  spec: z
    .looseObject({
      suspend: z.boolean().optional(),
      force: z.boolean().optional(),
      interval: z.string().optional(),
    })
    .optional(),
});

const helmReleaseSchema = z.looseObject({
  spec: z
    .looseObject({
      suspend: z.boolean().optional(),
      interval: z.string().optional(),
      driftDetection: z
        .looseObject({
          mode: z.enum(['enabled', 'warn', 'disabled']).optional(),
          ignore: z
            .array(
              z.looseObject({
                paths: z.array(z.string()),
                target: z
                  .looseObject({
                    group: z.string().optional(),
                    version: z.string().optional(),
                    kind: z.string().optional(),
                    name: z.string().optional(),
                    namespace: z.string().optional(),
                    labelSelector: z.string().optional(),
                    annotationSelector: z.string().optional(),
                  })
                  .optional(),
              }),
            )
            .nullable()
            .optional(),
        })
        .nullable()
        .optional(),
    })
    .optional(),
});

interface ArgoSettings {
  kind: 'Application';
  /** Automated sync on (automated present, enabled absent or true). */
  automated: boolean;
  /** Why automated sync is off, as the object says it. */
  automatedOff?: string;
  selfHeal: boolean;
  respectIgnoreDifferences: boolean;
  /** Whether status.resources lists the Deployment; undefined when the status lists nothing. */
  listsDeployment: boolean | undefined;
  /** Whether spec.ignoreDifferences leaves the field out of the comparison. */
  ignores(tokens: readonly string[]): Coverage;
}

interface KustomizationSettings {
  kind: 'Kustomization';
  suspend: boolean;
  force: boolean;
  interval?: string;
}

interface HelmReleaseSettings {
  kind: 'HelmRelease';
  suspend: boolean;
  mode: 'enabled' | 'warn' | 'disabled';
  interval?: string;
  ignores(tokens: readonly string[]): Coverage;
}

export type OwnerSettings = ArgoSettings | KustomizationSettings | HelmReleaseSettings;

/** The settings the object read says, or why they are not known. */
export function ownerSettings(
  read: OwnerSettingsRead | undefined,
  live: WorkloadObject,
  kind: WorkloadKind = 'Deployment',
): { ok: true; settings: OwnerSettings } | { ok: false; why: string } {
  if (!read) return { ok: false, why: 'not read' };
  if (read.state !== 'read') return { ok: false, why: unreadWhy(read) };
  const where = `${read.kind} ${read.namespace}/${read.name}`;
  const malformed = {
    ok: false as const,
    why: `${where} was read but is not in the ${read.apiVersion} shape`,
  };
  switch (read.kind) {
    case 'Application': {
      const parsed = argoSchema.safeParse(read.object);
      return parsed.success ? { ok: true, settings: argoSettings(parsed.data, live, kind) } : malformed;
    }
    case 'Kustomization': {
      const parsed = kustomizationSchema.safeParse(read.object);
      if (!parsed.success) return malformed;
      const spec = parsed.data.spec ?? {};
      return {
        ok: true,
        settings: {
          kind: 'Kustomization',
          suspend: spec.suspend === true,
          force: spec.force === true,
          ...(spec.interval ? { interval: spec.interval } : {}),
        },
      };
    }
    case 'HelmRelease': {
      const parsed = helmReleaseSchema.safeParse(read.object);
      if (!parsed.success) return malformed;
      const spec = parsed.data.spec ?? {};
      const rules = spec.driftDetection?.ignore ?? [];
      return {
        ok: true,
        settings: {
          kind: 'HelmRelease',
          suspend: spec.suspend === true,
          mode: spec.driftDetection?.mode ?? 'disabled',
          ...(spec.interval ? { interval: spec.interval } : {}),
          ignores: (tokens) =>
            strongest(
              rules.map((rule) => {
                const target = helmTargetMatches(rule.target, live, kind);
                if (target === 'no') return 'no';
                const covered = rule.paths.some((p) => pointerCovers(p, tokens));
                return covered ? target : 'no';
              }),
            ),
        },
      };
    }
  }
}

/** Why the settings are not known, with the read that settles it. */
function unreadWhy(read: OwnerSettingsRead): string {
  const what = `${read.kind} ${read.namespace}/${read.name}`;
  switch (read.state) {
    case 'forbidden':
      return `reading ${what} was forbidden (grant get on ${read.resource} in ${read.namespace}; or ${read.settle})`;
    case 'not-served':
      return `this cluster serves no ${read.resource} (the owner may run in another cluster: ${read.settle} there)`;
    case 'not-found':
      return `this cluster has no ${what} (it may be managed from another cluster or namespace: ${read.settle} there)`;
    case 'failed':
      return `reading ${what} failed (${read.settle})`;
    case 'not-in-dump':
      return `${what} is not in the dump (add ${read.settle})`;
    case 'read':
      return '';
  }
}

function argoSettings(
  app: z.infer<typeof argoSchema>,
  live: WorkloadObject,
  kind: WorkloadKind,
): ArgoSettings {
  const policy = app.spec?.syncPolicy ?? undefined;
  const automatedObject = policy?.automated ?? undefined;
  const automated = automatedObject !== undefined && automatedObject.enabled !== false;
  const automatedOff =
    automatedObject === undefined
      ? 'spec.syncPolicy.automated is not set'
      : automatedObject.enabled === false
        ? 'spec.syncPolicy.automated.enabled is false'
        : undefined;
  const meta = live.metadata;
  const entries = (app.spec?.ignoreDifferences ?? []).filter(
    (e) =>
      globMatch(e.group ?? '', 'apps') &&
      globMatch(e.kind ?? '', kind) &&
      (!e.name || e.name === meta.name) &&
      (!e.namespace || e.namespace === meta.namespace),
  );
  const resources = app.status?.resources ?? [];
  return {
    kind: 'Application',
    automated,
    ...(automatedOff ? { automatedOff } : {}),
    selfHeal: automatedObject?.selfHeal === true,
    respectIgnoreDifferences: (policy?.syncOptions ?? []).includes('RespectIgnoreDifferences=true'),
    listsDeployment:
      resources.length === 0
        ? undefined
        : resources.some(
            (r) =>
              r.group === 'apps' &&
              r.kind === kind &&
              r.name === meta.name &&
              (r.namespace ?? '') === (meta.namespace ?? ''),
          ),
    ignores: (tokens) =>
      strongest(
        entries.map((e): Coverage => {
          if ((e.managedFieldsManagers ?? []).includes(OUR_FIELD_MANAGER)) return 'yes';
          if ((e.jsonPointers ?? []).some((p) => pointerCovers(p, tokens))) return 'yes';
          const jq = (e.jqPathExpressions ?? []).map(jqPath);
          if (jq.some((path) => path !== undefined && isPrefix(path, tokens))) return 'yes';
          return jq.some((path) => path === undefined) ? 'maybe' : 'no';
        }),
      ),
  };
}

function strongest(values: Coverage[]): Coverage {
  if (values.includes('yes')) return 'yes';
  if (values.includes('maybe')) return 'maybe';
  return 'no';
}

/** Argo CD's glob (`*` any run): an empty pattern matches only the empty (core) group. */
function globMatch(pattern: string, value: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(value);
}

function isPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  return prefix.length <= tokens.length && prefix.every((t, i) => t === tokens[i]);
}

/** A JSON pointer removes its subtree from the comparison: it covers the field at or under it. */
function pointerCovers(pointer: string, tokens: readonly string[]): boolean {
  try {
    return isPrefix(parsePointer(pointer), tokens);
  } catch {
    return false;
  }
}

/** `.spec.strategy` or `.metadata.annotations["a/b"]` as tokens; undefined for anything else (filters, iterators). */
function jqPath(expression: string): string[] | undefined {
  const tokens: string[] = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]|\.\["((?:[^"\\]|\\.)*)"\]/y;
  const text = expression.trim();
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    tokens.push(m[1] ?? m[2] ?? m[3] ?? '');
    at = re.lastIndex;
  }
  return tokens.length > 0 ? tokens : undefined;
}

/**
 * A HelmRelease ignore rule's target (a kustomize selector: name and namespace are
 * regular expressions, as are group, version and kind): no target is every object of the release; a label or
 * annotation selector is not evaluated here ('maybe').
 */
function helmTargetMatches(
  target:
    | {
        group?: string | undefined;
        version?: string | undefined;
        kind?: string | undefined;
        name?: string | undefined;
        namespace?: string | undefined;
        labelSelector?: string | undefined;
        annotationSelector?: string | undefined;
      }
    | undefined,
  live: WorkloadObject,
  kind: WorkloadKind,
): Coverage {
  if (!target) return 'yes';
  const regex = (pattern: string | undefined, value: string): boolean => {
    if (!pattern) return true;
    try {
      return new RegExp(`^(?:${pattern})$`).test(value);
    } catch {
      return false;
    }
  };
  if (!regex(target.group, 'apps') || !regex(target.version, 'v1') || !regex(target.kind, kind)) return 'no';
  if (!regex(target.name, live.metadata.name ?? '')) return 'no';
  if (!regex(target.namespace, live.metadata.namespace ?? '')) return 'no';
  return target.labelSelector || target.annotationSelector ? 'maybe' : 'yes';
}
