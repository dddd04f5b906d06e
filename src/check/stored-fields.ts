/**
 * What an apply stores where the manifest leaves out a field the live object sets
 * (DESIGN.md §4e): a manifest without `strategy` keeps the live strategy
 * when its owner never set it, and gets the default when its owner did and dropped it.
 * - kubectl client-side apply (and Argo CD's default) patches only the fields in the
 *   manifest, and removes those the last-applied-configuration annotation lists and the
 *   manifest dropped;
 * - server-side apply (kubectl --server-side, Argo CD ServerSideApply, Flux) removes a
 *   field the applier owned and dropped, unless another manager holds it too; a field
 *   only others own stays;
 * - Helm 3/4 three-way merge the old release's manifest, the new one and the live
 *   object: a field the old chart set and the new one drops is removed (whoever else
 *   holds it), one the chart never set stays. The old manifest sits in a release Secret:
 *   helm's managedFields entry stands for it, until another manager's Update (a
 *   `kubectl edit`) takes a field out of it; such a field is not known.
 * The same holds one level down: a manifest that sets the strategy and its
 * `rollingUpdate` (or an Argo canary's block) but leaves out `maxUnavailable` keeps the
 * live value where its owner never set it (no patch strategy merges inside that block:
 * only the keys of the strategy itself are replaced, by a Deployment's retainKeys).
 * Which of those the field is comes from the live object's owner (ownership.ts: its
 * tool, the manifest it last applied, the managers holding the field). Where nothing
 * says, both are possible: check judges the rollout with each and says "not known"
 * when they differ, never the default silently.
 */
import { detectOwner, desiredManifest, manifestSets, otherHolders } from '../diagnosis/ownership.js';
import { semanticEqual } from '../diagnosis/base/semantic-equal.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';

/**
 * The spec fields whose live value decides how a rollout goes, per kind. `replicas` among
 * them: left out where kubectl last applied it, the apply removes it and the API's
 * default (1) is stored (an HPA then scales it back; the rollout meanwhile runs at 1).
 */
function fieldsThatShapeTheRollout(kind: WorkloadKind): string[] {
  const strategy = workloadKind(kind).strategyAt.field;
  return [...new Set([strategy, 'minReadySeconds', 'paused', 'replicas'])];
}

/** What the apply stores for one field the manifest leaves out and the live object sets. */
export interface OmittedField {
  /** Its path under spec, dotted where it sits in the strategy's block ("strategy.rollingUpdate.maxUnavailable"). */
  field: string;
  /** The live value, as the API server holds it. */
  live: unknown;
  /** 'live': the apply keeps it; 'default': it removes it; 'unknown': nothing says which. */
  stored: 'live' | 'default' | 'unknown';
  /** Why, in a clause ("the manifest kubectl last applied never set it"). */
  why: string;
  /**
   * The same why as catalogue words (words.ts), for a reader of another language, where
   * the apply's outcome is known; never in the JSON output (render.ts renderJson).
   */
  says?: StoredSays;
}

/** Why the apply keeps or drops a field, as words.ts says it. */
export type StoredSays =
  { key: 'neverSet' | 'dropped'; params: { who: string } } | { key: 'alsoHeld'; params: { others: string } };

/** The default the API stores for a removed scalar field ("1" for replicas), where it matters to say. */
export function storedDefault(field: string): string | undefined {
  return field === 'replicas' ? String(SCALAR_DEFAULTS[field]) : undefined;
}

/** Scalar fields, by the API's default a removed one reads as once stored. */
const SCALAR_DEFAULTS: Record<string, unknown> = { minReadySeconds: 0, paused: false, replicas: 1 };

/**
 * The live value differs from what the field reads as once removed: for the strategy,
 * the kind resolves it (type, surge, unavailability) differently without it.
 */
function differsFromDefault(kind: WorkloadKind, live: WorkloadObject, field: string): boolean {
  const value = (live.spec as unknown as Record<string, unknown>)[field];
  if (value === undefined) return false;
  if (field in SCALAR_DEFAULTS) return !semanticEqual(value, SCALAR_DEFAULTS[field]);
  const { [field]: _dropped, ...rest } = live.spec as unknown as Record<string, unknown>;
  const without = { ...live, spec: rest } as unknown as WorkloadObject;
  return readsDifferently(kind, live, without);
}

/**
 * The fields of the manifest's spec left out where the live object sets a value other
 * than the default, each with what the apply will store.
 */
export function omittedFields(
  kind: WorkloadKind,
  manifest: WorkloadObject,
  live: WorkloadObject | undefined,
): OmittedField[] {
  if (!live) return [];
  const manifestSpec = manifest.spec as unknown as Record<string, unknown>;
  const liveSpec = live.spec as unknown as Record<string, unknown>;
  const out: OmittedField[] = [];
  for (const field of fieldsThatShapeTheRollout(kind)) {
    if (manifestSpec[field] !== undefined) {
      out.push(...omittedInBlock(kind, manifest, live, field));
      continue;
    }
    if (!differsFromDefault(kind, live, field)) continue;
    out.push({ field, live: liveSpec[field], ...storedFor(kind, live, [field]) });
  }
  return out;
}

/** The strategy's fields inside a block (rollingUpdate, an Argo canary) a manifest may set without them. */
const BLOCK_FIELDS = ['maxSurge', 'maxUnavailable', 'partition'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields of the strategy's blocks the manifest sets without, where the live block
 * sets them and the rollout reads differently with the live value.
 */
function omittedInBlock(
  kind: WorkloadKind,
  manifest: WorkloadObject,
  live: WorkloadObject,
  field: string,
): OmittedField[] {
  const written = (manifest.spec as unknown as Record<string, unknown>)[field];
  const held = (live.spec as unknown as Record<string, unknown>)[field];
  if (!isObject(written) || !isObject(held)) return [];
  const out: OmittedField[] = [];
  for (const [block, liveBlock] of Object.entries(held)) {
    const manifestBlock = written[block];
    if (!isObject(liveBlock) || !isObject(manifestBlock)) continue;
    for (const leaf of BLOCK_FIELDS) {
      if (liveBlock[leaf] === undefined || manifestBlock[leaf] !== undefined) continue;
      const path = [field, block, leaf];
      const kept = withStoredFields(manifest, [{ field: path.join('.'), live: liveBlock[leaf] }], () => true);
      if (!readsDifferently(kind, manifest, kept)) continue;
      out.push({ field: path.join('.'), live: liveBlock[leaf], ...storedFor(kind, live, path) });
    }
  }
  return out;
}

/** The kind resolves the two objects' strategies (type, surge, unavailability, partition) differently. */
function readsDifferently(kind: WorkloadKind, a: WorkloadObject, b: WorkloadObject): boolean {
  const module = workloadKind(kind);
  const key = (o: WorkloadObject): string => {
    const s = module.strategy(o);
    return JSON.stringify([s.type, s.maxSurge?.value, s.maxUnavailable?.value, s.partition]);
  };
  return key(a) !== key(b);
}

/** What the apply stores for the live field at `path` (under spec) that the manifest leaves out. */
export function storedOf(
  kind: WorkloadKind,
  live: WorkloadObject,
  path: readonly string[],
): OmittedField['stored'] {
  return storedFor(kind, live, path).stored;
}

function storedFor(
  kind: WorkloadKind,
  live: WorkloadObject,
  path: readonly string[],
): Pick<OmittedField, 'stored' | 'why' | 'says'> {
  const owner = detectOwner({ group: WORKLOAD_NAMES[kind].group, kind, metadata: live.metadata });
  if (!owner)
    return {
      stored: 'unknown',
      why: 'no owner of the live object is recorded (no last-applied configuration, no field manager that applies manifests), so whether the apply keeps it is not known',
    };
  const manifest = desiredManifest(live.metadata, owner);
  const tokens = ['spec', ...path];
  const set = manifestSets(manifest, tokens);
  const who = `${owner.tool === 'kubectl' ? 'kubectl' : owner.tool} (${owner.evidence})`;
  if (set === undefined)
    return {
      stored: 'unknown',
      why: `the manifest ${who} last applied is not recorded (${manifest.source === 'unknown' ? manifest.reason : 'unreadable'}), so whether the apply keeps it is not known`,
    };
  // Helm (and Flux's helm-controller) merge against the last release's manifest, kept in
  // a release Secret, not the object: its managedFields entry only shows what helm wrote
  // last, and an Update by another manager (`kubectl edit`) takes a field out of it.
  const byRelease = owner.tool === 'helm' || owner.tool === 'flux-helm';
  const holders = (): string[] =>
    manifest.source === 'managed-fields' ? otherHolders(live.metadata, manifest, tokens) : [];
  if (!set) {
    const takenOver = byRelease ? holders() : [];
    if (takenOver.length > 0)
      return {
        stored: 'unknown',
        why: `${takenOver.join(', ')} hold${takenOver.length === 1 ? 's' : ''} it now, and ${who} merges against its last release's manifest, which the cluster does not show, so whether that release set it (and this apply removes it) is not known`,
      };
    return {
      stored: 'live',
      why: `the manifest ${who} last applied never set it, so the apply keeps it`,
      says: { key: 'neverSet', params: { who } },
    };
  }
  // Another holder keeps a field only under server-side apply; Helm's patch removes it.
  const others = byRelease ? [] : holders();
  if (others.length > 0)
    return {
      stored: 'live',
      why: `${others.join(', ')} also hold${others.length === 1 ? 's' : ''} it, so the apply leaves it`,
      says: { key: 'alsoHeld', params: { others: others.join(', ') } },
    };
  return {
    stored: 'default',
    why: `the manifest ${who} last applied set it and this one drops it, so the apply removes it and the default applies`,
    says: { key: 'dropped', params: { who } },
  };
}

/**
 * The manifest with each omitted field as the apply stores it: `keep` the live value, or
 * the default (left out, or for a scalar the API defaults, its default written: a
 * manifest without `replicas` is otherwise judged at the live count).
 */
export function withStoredFields<F extends Pick<OmittedField, 'field' | 'live'>>(
  manifest: WorkloadObject,
  fields: readonly F[],
  keep: (field: F) => boolean,
): WorkloadObject {
  const written = fields.filter((f) => keep(f) || f.field in SCALAR_DEFAULTS);
  if (written.length === 0) return manifest;
  const spec = { ...(manifest.spec as unknown as Record<string, unknown>) };
  for (const f of written) setCopied(spec, pathTokens(f.field), keep(f) ? f.live : SCALAR_DEFAULTS[f.field]);
  return { ...manifest, spec } as unknown as WorkloadObject;
}

/** A field's path as tokens: a key, or a list entry's index (a number). */
type Token = string | number;

/**
 * A field's path as written in `OmittedField.field`: keys joined by dots, a list entry
 * `containers[0]`, a key that holds a dot or a bracket quoted (`nodeSelector["topology.kubernetes.io/zone"]`).
 */
function fieldPath(tokens: readonly Token[]): string {
  return tokens
    .map((t, i) =>
      typeof t === 'number' ? `[${t}]` : /[.[\]"]/.test(t) ? `[${JSON.stringify(t)}]` : i === 0 ? t : `.${t}`,
    )
    .join('');
}

/** The tokens of a path fieldPath wrote. */
function pathTokens(field: string): Token[] {
  const tokens: Token[] = [];
  for (const m of field.matchAll(/\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[\]]+)/g))
    tokens.push(
      m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? (JSON.parse(m[2]) as string) : (m[3] ?? ''),
    );
  return tokens;
}

/** The path as template-change.ts names changes: keys by dots (quoted or not), entries `[0]`. */
export function plainPath(field: string): string {
  return pathTokens(field)
    .map((t, i) => (typeof t === 'number' ? `[${t}]` : i === 0 ? t : `.${t}`))
    .join('');
}

/** Sets `path` in `into` to `value`, copying each object and list on the way (the manifest is not changed). */
function setCopied(into: Record<string, unknown>, path: readonly Token[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    into[head] = value;
    return;
  }
  const held = into[head];
  const next = Array.isArray(held) ? [...(held as unknown[])] : isObject(held) ? { ...held } : {};
  into[head] = next;
  setCopied(next as Record<string, unknown>, rest, value);
}

/**
 * The pod template's lists whose entries an apply merges by key, and the key: the
 * `patchMergeKey` of k8s.io/api core/v1 (kubectl's strategic merge patch) and the first
 * of its `listMapKey`s (server-side apply, which keys ports by containerPort and
 * protocol, spread constraints by topologyKey and whenUnsatisfiable). A list not named
 * here (tolerations, readinessGates, envFrom) is atomic: the manifest's replaces it.
 */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  volumes: 'name',
  imagePullSecrets: 'name',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  schedulingGates: 'name',
  hostAliases: 'ip',
};

/**
 * The manifest with the live pod template's fields it leaves out that the apply keeps:
 * their owner never set them (a `kubectl rollout restart` annotation, a nodeSelector a
 * `kubectl patch` added), as storedOf says for each, a map or struct level at a time, and
 * a keyed list entry by entry (MERGE_KEYS); any other list is atomic, as written. A field whose
 * keeping is not known (no owner recorded) stays out of `object`, read as the change it
 * may be, and is listed in `unknown` (its path under spec, as omittedFields gives them),
 * so check judges the rollout with it kept too and says "not known" where that differs.
 */
export function withKeptTemplateFields(
  kind: WorkloadKind,
  manifest: WorkloadObject,
  live: WorkloadObject,
): { object: WorkloadObject; unknown: OmittedField[] } {
  const module = workloadKind(kind);
  const written = module.podTemplate(manifest) as unknown;
  const held = module.podTemplate(live) as unknown;
  const unknown: OmittedField[] = [];
  if (!isObject(written) || !isObject(held)) return { object: manifest, unknown };
  // `path`: where the field is written (a list entry by its index in the manifest,
  // containers[0]); `owned`: how its owner's manifest is asked ([name=app], [containerPort=80]).
  const keep = (
    m: Record<string, unknown>,
    l: Record<string, unknown>,
    path: Token[],
    owned: string[],
  ): Record<string, unknown> => {
    let out = m;
    for (const [key, value] of Object.entries(l)) {
      const mine = m[key];
      let kept = mine;
      if (mine === undefined) {
        const stored = storedFor(kind, live, ['template', ...owned, key]);
        if (stored.stored === 'live') kept = value;
        else if (stored.stored === 'unknown')
          unknown.push({ field: fieldPath(['template', ...path, key]), live: value, ...stored });
      } else if (isObject(mine) && isObject(value)) kept = keep(mine, value, [...path, key], [...owned, key]);
      else if (MERGE_KEYS[key] !== undefined && Array.isArray(mine) && Array.isArray(value))
        kept = keepEntries(
          mine as unknown[],
          value as unknown[],
          MERGE_KEYS[key],
          [...path, key],
          [...owned, key],
        );
      if (kept !== mine) out = { ...out, [key]: kept };
    }
    return out;
  };
  /**
   * A list merged by key (MERGE_KEYS: a container by name, a port by containerPort):
   * each manifest entry keeps what its live namesake holds and its owner never set; a
   * live entry the manifest does not name (a container or a hostPort a `kubectl patch`
   * added) stays where its owner never set it, at the end.
   */
  const keepEntries = (
    m: unknown[],
    l: unknown[],
    key: string,
    path: Token[],
    owned: string[],
  ): unknown[] => {
    const keyOf = (e: unknown): string | undefined => {
      const value = isObject(e) ? e[key] : undefined;
      return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
    };
    let changed = false;
    const entries = m.map((entry, i) => {
      const name = keyOf(entry);
      const namesake = l.find((e) => keyOf(e) === name);
      if (name === undefined || !isObject(entry) || !isObject(namesake)) return entry;
      const kept = keep(entry, namesake, [...path, i], [...owned, `[${key}=${name}]`]);
      changed ||= kept !== entry;
      return kept;
    });
    const named = new Set(m.map(keyOf));
    for (const entry of l) {
      const name = keyOf(entry);
      if (name === undefined || named.has(name)) continue;
      const stored = storedFor(kind, live, ['template', ...owned, `[${key}=${name}]`]);
      if (stored.stored === 'live') {
        entries.push(entry);
        changed = true;
      } else if (stored.stored === 'unknown')
        unknown.push({ field: fieldPath(['template', ...path, entries.length]), live: entry, ...stored });
    }
    return changed ? entries : m;
  };
  const template = keep(written, held, [], []);
  if (template === written) return { object: manifest, unknown };
  return {
    object: { ...manifest, spec: { ...manifest.spec, template } } as unknown as WorkloadObject,
    unknown,
  };
}
