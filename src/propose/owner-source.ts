/**
 * Where the workload's owner says its manifests live, so `--repo` and `--path` may be
 * left out: an Argo CD Application's spec.source (or the first of spec.sources with a
 * path): repoURL, path, targetRevision, helm.valueFiles and releaseName; a Flux
 * Kustomization's spec.path over its GitRepository's url and branch, or a HelmRelease's
 * chart from a GitRepository. The owner object is the one the diagnosis read
 * (OwnerSettingsRead); the GitRepository is the one read live with it (its `source`), else
 * one of a dump's objects. Pure.
 */
import { fluxSourceRef } from '../diagnosis/owner-target.js';
import type { OwnerSettingsRead } from '../diagnosis/snapshot/types.js';
import { posix } from 'node:path';

export interface GitSource {
  repo: string;
  path: string;
  base?: string;
  helm?: { values?: string; release?: string };
  /** Who said so: "Argo CD Application argocd/vision". */
  from: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A targetRevision or ref that names a branch (not HEAD, a tag-like version or a commit). */
function branchOf(revision: string | undefined): string | undefined {
  if (!revision || revision === 'HEAD' || /^[0-9a-f]{40}$/.test(revision) || /^v?\d+\.\d+/.test(revision))
    return undefined;
  return revision.replace(/^refs\/heads\//, '');
}

function fromApplication(app: Record<string, unknown>, from: string): GitSource | string {
  const spec = isRecord(app['spec']) ? app['spec'] : {};
  const sources = [spec['source'], ...(Array.isArray(spec['sources']) ? spec['sources'] : [])].filter(
    isRecord,
  );
  const source = sources.find((s) => str(s['repoURL']) && str(s['path']) !== undefined);
  if (!source)
    return `${from} has no Git source with a path (a chart from a Helm repository is not a Git path)`;
  const path = str(source['path']) ?? '.';
  const helm = isRecord(source['helm']) ? source['helm'] : undefined;
  const values = Array.isArray(helm?.['valueFiles']) ? str(helm['valueFiles'][0]) : undefined;
  const release = str(helm?.['releaseName']);
  const base = branchOf(str(source['targetRevision']));
  return {
    repo: str(source['repoURL']) ?? '',
    path,
    ...(base ? { base } : {}),
    ...(values || release
      ? { helm: { ...(values ? { values: posix.join(path, values) } : {}), ...(release ? { release } : {}) } }
      : {}),
    from,
  };
}

function fromFlux(
  owner: Record<string, unknown>,
  kind: string,
  namespace: string,
  objects: readonly Record<string, unknown>[],
  from: string,
): GitSource | string {
  const spec = isRecord(owner['spec']) ? owner['spec'] : {};
  const chartSpec =
    isRecord(spec['chart']) && isRecord(spec['chart']['spec']) ? spec['chart']['spec'] : undefined;
  const ref = fluxSourceRef(owner, kind === 'HelmRelease' ? 'HelmRelease' : 'Kustomization', namespace);
  if (ref?.kind !== 'GitRepository')
    return `${from} takes its manifests from a ${ref ? ref.kind : 'source'} that is not a GitRepository`;
  const { name, namespace: ns } = ref;
  const repo = objects.find(
    (o) =>
      o['kind'] === 'GitRepository' &&
      isRecord(o['metadata']) &&
      o['metadata']['name'] === name &&
      (o['metadata']['namespace'] ?? ns) === ns,
  );
  const repoSpec = repo && isRecord(repo['spec']) ? repo['spec'] : undefined;
  const url = str(repoSpec?.['url']);
  if (!url)
    return `${from} names GitRepository ${ns}/${name ?? ''}, which was not read (kubectl get gitrepositories.source.toolkit.fluxcd.io ${name ?? ''} -n ${ns} -o yaml)`;
  const branch = isRecord(repoSpec?.['ref']) ? str(repoSpec['ref']['branch']) : undefined;
  const path = (kind === 'HelmRelease' ? str(chartSpec?.['chart']) : str(spec['path'])) ?? '.';
  return { repo: url, path: path.replace(/^\.\//, '') || '.', ...(branch ? { base: branch } : {}), from };
}

/** The Git source the owner names, or why there is none to use. */
export function gitSourceOf(
  owner: OwnerSettingsRead | undefined,
  objects: readonly unknown[] = [],
): GitSource | string {
  if (!owner) return 'no GitOps owner (Argo CD or Flux) was recognised for the workload';
  const from = `${owner.kind === 'Application' ? 'Argo CD Application' : `Flux ${owner.kind}`} ${owner.namespace}/${owner.name}`;
  if (owner.state !== 'read' || !isRecord(owner.object))
    return `${from} was not read (${owner.state}): ${owner.settle}`;
  if (owner.kind === 'Application') return fromApplication(owner.object, from);
  // The GitRepository read live with the owner, else one of the dump's objects.
  const sources = [...(owner.source === undefined ? [] : [owner.source]), ...objects].filter(isRecord);
  return fromFlux(owner.object, owner.kind, owner.namespace, sources, from);
}
