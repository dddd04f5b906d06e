/**
 * `diagnose --from-file` on dumps holding the DRA kinds (kubectl get
 * resourceclaims -A, resourceslices, deviceclasses, resourceclaimtemplates -o yaml):
 * the DRA twin of incident A is found from the file, and a dump without the claims of
 * other namespaces leaves device occupancy unknown instead of free: only the
 * scheduler's own recent counts can then prove the GPU that looks free taken.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { claim, draSeed } from '../support/dra-builders.js';
import { makeDeployment, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const dir = mkdtempSync(join(tmpdir(), 'dra-dump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Json {
  findings: { code: string; summary: string }[];
  coverage: {
    dra?: { claims: string; slices: string };
    gaps: { about: string; what: string; settle: string }[];
  };
}

function dumpFile(
  name: string,
  keep: (kind: string, namespace?: string) => boolean,
  secondGpu = false,
  /** The new pod created after the scheduler's last refusal (which then was about another pod). */
  refusalBeforePod = false,
  /** How the pods get their GPU; 'extended': nvidia.com/gpu through a DeviceClass, no template. */
  mode: 'template' | 'extended' = 'template',
  /** The notebook of research holds its GPU through an extended resource, not a named claim. */
  notebookExtended = false,
): string {
  const research = makeReplicaSet(makeDeployment('notebook', { namespace: 'research' }), '5f7c9d8b6d', {
    revision: 1,
    replicas: 1,
  });
  const notebook = makePod(research, 'r4tz8', 'gpu-node-1', { phase: 'Running' });
  // As the API server holds it: the pod names the claim it uses.
  if (notebookExtended)
    notebook.status = {
      ...notebook.status,
      extendedResourceClaimStatus: {
        resourceClaimName: 'notebook-gpu',
        requestMappings: [
          { containerName: 'notebook', resourceName: 'nvidia.com/gpu', requestName: 'container-0-request-0' },
        ],
      },
    };
  else notebook.spec.resourceClaims = [{ name: 'gpu', resourceClaimName: 'notebook-gpu' }];
  const theirs = claim('notebook-gpu', 'research', { device: 'gpu-1', node: 'gpu-node-1', pods: [notebook] });
  const { snapshot, newPod } = draSeed({
    mode,
    claims: [theirs],
    ...(secondGpu ? { gpus: [{ name: 'gpu-0' }, { name: 'gpu-1' }] } : {}),
  });
  if (refusalBeforePod) newPod.metadata.creationTimestamp = '2026-11-22T02:59:50Z';
  const dra = snapshot.dra;
  const items = [
    snapshot.deployment,
    ...snapshot.replicaSets,
    ...snapshot.pods,
    notebook,
    ...snapshot.events,
    ...snapshot.nodes,
    ...(dra ? [...dra.classes, ...dra.slices, ...dra.templates, ...dra.claims] : []),
  ].filter((o) => keep(o.kind ?? '', o.metadata.namespace));
  const file = join(dir, name);
  writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'List', items }));
  return file;
}

async function diagnoseFile(file: string): Promise<{ status: number; json: Json }> {
  const run = fakeIo();
  const status = await runCli(
    ['diagnose', 'deployment/tracker', '-n', 'vision', '--from-file', file, '-o', 'json'],
    run.io,
  );
  return { status, json: JSON.parse(run.stdout()) as Json };
}

describe('dumps with resource.k8s.io kinds', () => {
  it('finds the DRA surge deadlock from a dump with claims of every namespace', async () => {
    const { status, json } = await diagnoseFile(dumpFile('all.yaml', () => true, true));
    expect(status).toBe(1);
    expect(json.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
    expect(json.coverage.dra).toEqual({
      claims: 'all',
      slices: 'complete',
      classes: 'complete',
      templates: 'complete',
    });
  });

  /** The dump of the deadlock with `and` added to the DeviceClass selector. */
  function classSelectorDump(name: string, and: string): string {
    const file = dumpFile(name, () => true, true);
    const list = parse(readFileSync(file, 'utf8')) as {
      items: { kind: string; spec?: { selectors?: { cel: { expression: string } }[] } }[];
    };
    const deviceClass = list.items.find((o) => o.kind === 'DeviceClass');
    const selector = deviceClass?.spec?.selectors?.[0];
    if (!selector) throw new Error('the dump has no DeviceClass selector');
    selector.cel.expression += ` && ${and}`;
    writeFileSync(file, stringify(list));
    return file;
  }

  it('a DeviceClass selector in RE2 syntax (a POSIX class) matches as in Kubernetes: the deadlock, not "0 matching"', async () => {
    // JavaScript reads [[:alnum:]] as the class [:alnum] followed by "]": nothing would match.
    const file = classSelectorDump(
      're2-class.yaml',
      'device.attributes["gpu.nvidia.com"].productName.matches("^NVIDIA [[:alnum:]]+-[[:alnum:]]+-[[:digit:]]+GB$")',
    );
    const { json } = await diagnoseFile(file);
    const codes = json.findings.map((f) => f.code);
    expect(codes).toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
  });

  it('a pattern RE2 refuses (lookahead) is IncompleteEvidence naming the class, the selector and why', async () => {
    const file = classSelectorDump(
      'lookahead-class.yaml',
      'device.attributes["gpu.nvidia.com"].productName.matches("(?=NVIDIA)")',
    );
    const { json } = await diagnoseFile(file);
    const codes = json.findings.map((f) => f.code);
    expect(codes).toContain('IncompleteEvidence');
    expect(codes).not.toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
    expect(JSON.stringify(json.findings)).toMatch(
      /DeviceClass gpu\.nvidia\.com, selector #0: .*is not valid RE2/,
    );
  });

  it('without the claims of other namespaces a GPU that looks free is unknown, never room', async () => {
    const file = dumpFile('own-claims-stale.yaml', (kind, ns) => !(ns === 'research'), true, true);
    const { json } = await diagnoseFile(file);
    expect(json.coverage.dra?.claims).toBe('namespace');
    expect(json.coverage.gaps.map((g) => g.settle)).toContain('kubectl get resourceclaims -A -o yaml');
    const codes = json.findings.map((f) => f.code);
    expect(codes).toContain('IncompleteEvidence');
    expect(codes).not.toContain('Unschedulable');
  });

  it("without the claims of other namespaces, the new pod's recent refusal proves the GPU that looks free taken", async () => {
    const file = dumpFile('own-claims.yaml', (kind, ns) => !(ns === 'research'), true);
    const { json } = await diagnoseFile(file);
    expect(json.coverage.dra?.claims).toBe('namespace');
    const deadlock = json.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.summary).toContain('can never finish');
    expect(JSON.stringify(deadlock)).toContain('ResourceClaims of other namespaces could not be read');
  });

  it('without any DRA object the scheduler’s claim message is IncompleteEvidence naming the reads', async () => {
    const file = dumpFile(
      'no-dra.yaml',
      (kind) => !['ResourceClaim', 'ResourceSlice', 'DeviceClass', 'ResourceClaimTemplate'].includes(kind),
    );
    const { status, json } = await diagnoseFile(file);
    expect(status).toBe(1);
    expect(json.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(json.coverage.dra?.claims).toBe('unread');
    // Each kind by its plural: "DeviceClasses", never "DeviceClasss".
    expect(json.coverage.gaps.map((g) => g.what)).toEqual(
      expect.arrayContaining(['ResourceClaims', 'ResourceSlices', 'DeviceClasses', 'ResourceClaimTemplates']),
    );
    expect(JSON.stringify(json)).not.toContain('Classs');
  });

  it('without the ResourceSlices the devices are unknown: IncompleteEvidence, never "no matching device"', async () => {
    const { status, json } = await diagnoseFile(
      dumpFile('no-slices.yaml', (kind) => kind !== 'ResourceSlice', true),
    );
    expect(status).toBe(1);
    expect(json.coverage.dra?.slices).toBe('unread');
    const codes = json.findings.map((f) => f.code);
    expect(codes).toContain('IncompleteEvidence');
    expect(codes).not.toContain('Unschedulable');
    expect(JSON.stringify(json.findings)).toContain('kubectl get resourceslices');
  });

  it('pods of another namespace naming a claim the dump lacks: claims of other namespaces were not all read', async () => {
    const file = dumpFile(
      'pods-without-their-claims.yaml',
      (kind, ns) => !(kind === 'ResourceClaim' && ns === 'research'),
      true,
      true,
    );
    const { json } = await diagnoseFile(file);
    expect(json.coverage.dra?.claims).toBe('namespace');
    expect(json.findings.map((f) => f.code)).toContain('IncompleteEvidence');
    expect(json.findings.map((f) => f.code)).not.toContain('Unschedulable');
  });
  it("a dump without the new pod's own claim (cut by a selector, saved in parts) does not prove it deleted", async () => {
    const file = dumpFile('without-new-claim.yaml', () => true, true);
    const list = parse(readFileSync(file, 'utf8')) as {
      items: { kind: string; metadata: { name: string } }[];
    };
    const kept = list.items.filter(
      (o) => !(o.kind === 'ResourceClaim' && o.metadata.name.endsWith('-gpu-b6x9r')),
    );
    expect(kept).toHaveLength(list.items.length - 1);
    writeFileSync(file, stringify({ ...list, items: kept }));
    const { json } = await diagnoseFile(file);
    expect(JSON.stringify(json.findings)).not.toMatch(/no longer exists/);
    // The scheduler's refusal ("cannot allocate all claims", not "could not find
    // ResourceClaim") and the template still prove the deadlock; the gap is named.
    expect(json.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
    expect(json.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'dra',
        reason: 'not-in-dump',
        what: expect.stringMatching(/-gpu-b6x9r \(named by pod /),
      }),
    );
  });

  it("a dump without an old pod's extended-resource claim (status.extendedResourceClaimStatus) names it: never room", async () => {
    const file = dumpFile('without-extended-claim.yaml', () => true, true, false, 'extended');
    const list = parse(readFileSync(file, 'utf8')) as {
      items: { kind: string; metadata: { name: string } }[];
    };
    const kept = list.items.filter(
      (o) => !(o.kind === 'ResourceClaim' && o.metadata.name.endsWith('-extended-resources-t8v2c')),
    );
    expect(kept).toHaveLength(list.items.length - 1);
    writeFileSync(file, stringify({ ...list, items: kept }));
    const { json } = await diagnoseFile(file);
    // gpu-0 looks free without the old pod's claim: unknown, not room on gpu-node-1.
    expect(json.coverage.dra?.claims).not.toBe('all');
    expect(json.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'dra',
        reason: 'not-in-dump',
        what: expect.stringMatching(/-extended-resources-t8v2c \(named by pod tracker-/),
      }),
    );
    const codes = json.findings.map((f) => f.code);
    expect(codes).not.toContain('Unschedulable');
    expect(codes.some((c) => c === 'IncompleteEvidence' || c === 'RolloutSurgeDeadlock')).toBe(true);
  });

  it("another namespace's pod whose extended-resource claim the dump lacks: claims of other namespaces not all read", async () => {
    const file = dumpFile(
      'tenant-without-extended-claim.yaml',
      (kind, ns) => !(kind === 'ResourceClaim' && ns === 'research'),
      true,
      true,
      'extended',
      true,
    );
    const { json } = await diagnoseFile(file);
    expect(json.coverage.dra?.claims).toBe('namespace');
    expect(json.coverage.gaps).toContainEqual(
      expect.objectContaining({ about: 'dra', what: 'ResourceClaims of other namespaces' }),
    );
    expect(json.findings.map((f) => f.code)).not.toContain('Unschedulable');
  });

  it('extended resources without ResourceClaimTemplates in the dump: no template gap (none is used)', async () => {
    const file = dumpFile('extended-all.yaml', () => true, true, false, 'extended');
    const { json } = await diagnoseFile(file);
    expect(json.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
    expect(json.coverage.dra?.claims).toBe('all');
    expect(json.coverage.gaps.map((g) => g.what)).not.toContain('ResourceClaimTemplates');
    // A template-made claim still needs its template: the gap stays.
    const template = await diagnoseFile(
      dumpFile('template-no-templates.yaml', (kind) => kind !== 'ResourceClaimTemplate', true),
    );
    expect(template.json.coverage.gaps.map((g) => g.what)).toContain('ResourceClaimTemplates');
  });

  it('an extended-resource claim named by a pod of a dump without DRA objects: DRA unread, never "the node has no nvidia.com/gpu"', async () => {
    const file = dumpFile(
      'extended-no-dra.yaml',
      (kind) => !['ResourceClaim', 'ResourceSlice', 'DeviceClass', 'ResourceClaimTemplate'].includes(kind),
      true,
      false,
      'extended',
      true,
    );
    // No pod lists spec.resourceClaims: only the pods' status names the claims.
    expect(readFileSync(file, 'utf8')).not.toContain('resourceClaims:');
    const { json } = await diagnoseFile(file);
    expect(json.coverage.dra).toMatchObject({ claims: 'unread', slices: 'unread', classes: 'unread' });
    expect(json.coverage.gaps.map((g) => g.what)).toContain('DeviceClasses');
    expect(json.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
  });
});
