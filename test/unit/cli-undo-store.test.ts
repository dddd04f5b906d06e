/**
 * The CLI's undo store in a state directory others can reach (issue 41.5): a directory
 * another user can write, or one another user owns, is refused and left as it is; a
 * symlink planted at the predictable `<id>.json` is replaced, never written through;
 * and a file that is a symlink, another user's, writable by others, or holding another
 * plan's undo is not loaded.
 */
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadUndo, saveUndo } from '../../src/cli/undo-store.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';

const CLUSTER = { server: 'https://127.0.0.1:6443', context: 'kind' };

function plan(id: string, name: string): RemediationPlan {
  return {
    id,
    kind: 'set-rolling-update',
    target: { kind: 'DaemonSet', namespace: 'gpu', name },
    summary: 's',
    impact: 'i',
    warnings: [],
    patch: {
      type: 'strategic-merge',
      body: { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } } } },
    },
    inverse: null,
    preconditions: { uid: 'u-1', generation: 2, fields: [], fieldsOnly: true },
    addresses: 'RolloutSurgeDeadlock',
  } as unknown as RemediationPlan;
}

const ID = 'undo-set-rolling-update-0123456789abcdef';
let base: string;
let state: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'undo-store-'));
  state = join(base, 'state');
  env = { ROLLOUT_DOCTOR_STATE_DIR: state };
});
afterEach(() => {
  chmodSync(base, 0o700);
});

const modeOf = (path: string): number => lstatSync(path).mode & 0o777;

describe('saving an undo', () => {
  it('in a directory of the user’s own: kept 0600 under 0700, and loaded back', async () => {
    const saved = await saveUndo(plan(ID, 'dcgm'), CLUSTER, env);
    expect(saved).toEqual({ ok: true, path: join(state, 'undo', `${ID}.json`) });
    expect(modeOf(join(state, 'undo'))).toBe(0o700);
    expect(modeOf(join(state, 'undo', `${ID}.json`))).toBe(0o600);
    const loaded = await loadUndo(ID, env);
    expect(loaded.ok && loaded.undo.plan.target.name).toBe('dcgm');
  });

  it.each([
    ['the state directory', () => state],
    ['the undo directory', () => join(state, 'undo')],
  ])('%s writable by others (777): refused, its mode kept as it was, nothing written', async (_what, dir) => {
    mkdirSync(join(state, 'undo'), { recursive: true });
    chmodSync(dir(), 0o777);
    const saved = await saveUndo(plan(ID, 'dcgm'), CLUSTER, env);
    expect(saved.ok).toBe(false);
    expect(!saved.ok && saved.reason).toContain('can be written by other users (mode 777)');
    expect(modeOf(dir())).toBe(0o777);
    expect(() => lstatSync(join(state, 'undo', `${ID}.json`))).toThrow();
  });

  it('an undo directory another user owns: refused', async () => {
    mkdirSync(join(state, 'undo'), { recursive: true, mode: 0o700 });
    chownSync(join(state, 'undo'), 4321, 4321);
    const saved = await saveUndo(plan(ID, 'dcgm'), CLUSTER, env);
    expect(!saved.ok && saved.reason).toContain('belongs to another user (uid 4321)');
  });

  it('a symlink planted at <id>.json is replaced by the file, never written through', async () => {
    const victim = join(base, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    mkdirSync(join(state, 'undo'), { recursive: true, mode: 0o700 });
    symlinkSync(victim, join(state, 'undo', `${ID}.json`));
    const saved = await saveUndo(plan(ID, 'dcgm'), CLUSTER, env);
    expect(saved.ok).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(state, 'undo', `${ID}.json`)).isSymbolicLink()).toBe(false);
  });
});

describe('loading an undo', () => {
  beforeEach(async () => {
    expect((await saveUndo(plan(ID, 'dcgm'), CLUSTER, env)).ok).toBe(true);
  });
  const file = (): string => join(state, 'undo', `${ID}.json`);

  it('a symlink at <id>.json (to an undo aimed elsewhere): not loaded', async () => {
    const elsewhere = join(base, 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(file(), 'utf8').replace('"dcgm"', '"kube-proxy"'), { mode: 0o600 });
    renameSync(file(), join(base, 'moved.json'));
    symlinkSync(elsewhere, file());
    const loaded = await loadUndo(ID, env);
    expect(!loaded.ok && loaded.reason).toContain('is a symlink');
  });

  it('a file another user owns, or one others can write: not loaded', async () => {
    chownSync(file(), 4321, 4321);
    const theirs = await loadUndo(ID, env);
    expect(!theirs.ok && theirs.reason).toContain('belongs to another user (uid 4321)');
    chownSync(file(), process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    chmodSync(file(), 0o666);
    const open = await loadUndo(ID, env);
    expect(!open.ok && open.reason).toContain('can be written by other users (mode 666)');
    const byPath = await loadUndo(file(), env);
    expect(byPath.ok).toBe(false);
  });

  it('an undo directory others can write, at load: not loaded', async () => {
    chmodSync(join(state, 'undo'), 0o777);
    const loaded = await loadUndo(ID, env);
    expect(!loaded.ok && loaded.reason).toContain('can be written by other users');
  });

  it('a file whose plan lost its patch, or carries what its kind does not: not loaded, said why', async () => {
    expect((await saveUndo(plan(ID, 'kube-proxy'), CLUSTER, env)).ok).toBe(true);
    const saved = JSON.parse(readFileSync(file(), 'utf8')) as { plan: Record<string, unknown> };
    const rewrite = (change: (p: Record<string, unknown>) => void): void => {
      const copy = structuredClone(saved);
      change(copy.plan);
      writeFileSync(file(), JSON.stringify(copy), { mode: 0o600 });
    };
    rewrite((p) => delete p['patch']);
    const noPatch = await loadUndo(ID, env);
    expect(!noPatch.ok && noPatch.reason).toMatch(/is not an undo apply wrote: plan\.patch/);
    rewrite((p) => (p['pods'] = [{ name: 'web-1', uid: 'u' }]));
    const pods = await loadUndo(ID, env);
    expect(!pods.ok && pods.reason).toMatch(/is not an undo apply wrote: set-rolling-update deletes no pods/);
    rewrite(() => undefined);
    expect((await loadUndo(ID, env)).ok).toBe(true);
  });

  // Its JSON patch replaces or removes the whole affinity: within the kind's paths only
  // against the live object, which the executor reads at apply, not at load.
  it('an exclude-node undo, as inversePlan makes it, is kept and loaded back', async () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
          ],
        },
      },
    };
    const path = '/spec/template/spec/affinity';
    const forward = {
      ...plan('exclude-node-0123456789abcdef', 'web'),
      kind: 'exclude-node',
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      patch: { type: 'json', body: [{ op: 'add', path, value: affinity }] },
      inverse: {
        type: 'json',
        body: [
          { op: 'test', path, value: affinity },
          { op: 'remove', path },
        ],
      },
      preconditions: { uid: 'u-1', generation: 3, fields: [{ path, value: undefined }] },
      addresses: 'CrashLoopOnNode',
    } as unknown as RemediationPlan;
    const undo = inversePlan(forward, {
      generation: 4,
      changes: [{ path, before: undefined, after: affinity }],
    });
    if (!undo) throw new Error('no undo of exclude-node');
    expect((await saveUndo(undo, CLUSTER, env)).ok).toBe(true);
    const loaded = await loadUndo(undo.id, env);
    expect(loaded.ok && loaded.undo.plan.kind).toBe('exclude-node');
  });

  it('a file swapped in under this id that holds another plan’s undo: not loaded', async () => {
    const other = 'undo-set-rolling-update-fedcba9876543210';
    expect((await saveUndo(plan(other, 'kube-proxy'), CLUSTER, env)).ok).toBe(true);
    renameSync(join(state, 'undo', `${other}.json`), file());
    const loaded = await loadUndo(ID, env);
    expect(!loaded.ok && loaded.reason).toContain(`holds undo ${other}, not ${ID}`);
  });
});
