/**
 * Where the change goes, by what the path holds: a kustomization (an overlay or a base:
 * kustomize.ts) or plain manifests (plain.ts); and how the result is rendered for check:
 * `kubectl kustomize` of the overlay, or the edited file itself.
 */
import { readFile } from 'node:fs/promises';
import { lstat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { insideCheckout } from './checkout.js';
import { editHelm } from './helm.js';
import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES } from '../diagnosis/workload-ref.js';
import { editKustomize, kustomizationFile } from './kustomize.js';
import { editPlain, type FileEdit } from './plain.js';
import { runTool, type Tools } from './tool.js';

interface Placed {
  edits: FileEdit[];
  /** The text check reads once the edits are written, and what it is ("apps/web.yaml", "kubectl kustomize overlays/prod"). */
  render: () => Promise<{ text: string; label: string }>;
}

type Placement = { ok: true; placed: Placed } | { ok: false; why: string };

export async function place(
  root: string,
  full: string,
  target: WorkloadRef,
  merge: Record<string, unknown>,
  context: { tools: Tools; home: string; helm?: { release?: string; values?: string } },
): Promise<Placement> {
  const isDir = (await lstat(full)).isDirectory();
  if (isDir && (await lstat(join(full, 'Chart.yaml')).catch(() => undefined))?.isFile()) {
    const values = context.helm?.values
      ? await insideCheckout(root, context.helm.values)
      : join(full, 'values.yaml');
    const release = context.helm?.release ?? target.name;
    const located = await editHelm(root, full, values, target, merge, {
      release,
      namespace: target.namespace,
      tools: context.tools,
      home: context.home,
    });
    if (!located.ok) return located;
    const { render } = located;
    return {
      ok: true,
      placed: {
        edits: located.edits,
        render: async () => ({
          text: render ? await render() : '',
          label: `helm template ${release} ${relative(root, full) || '.'}`,
        }),
      },
    };
  }
  if (isDir && (await kustomizationFile(full))) {
    const { group, version } = WORKLOAD_NAMES[target.kind];
    const apiVersion = group ? `${group}/${version}` : version;
    const located = await editKustomize(
      root,
      full,
      { kind: target.kind, name: target.name, apiVersion },
      merge,
    );
    if (!located.ok) return located;
    const dir = relative(root, full) || '.';
    return {
      ok: true,
      placed: {
        edits: located.edits,
        render: async () => ({
          text: await runTool(context.tools.kubectl, ['kustomize', dir], root, context.home),
          label: `kubectl kustomize ${dir}`,
        }),
      },
    };
  }
  const located = await editPlain(root, full, { ...target }, merge);
  if (!located.ok) return located;
  const [edit] = located.edits;
  return {
    ok: true,
    placed: {
      edits: located.edits,
      render: async () => ({ text: edit ? await readFile(edit.full, 'utf8') : '', label: edit?.file ?? '' }),
    },
  };
}
