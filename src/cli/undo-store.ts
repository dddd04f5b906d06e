/**
 * Where `rollout-doctor apply` keeps the Undo of what it wrote, so `rollout-doctor undo
 * ID` can put it back with the same checks as the Slack Undo button: the kind's inverse
 * plan, whose preconditions (the generation this apply produced, each changed field at
 * its new value) make the executor refuse once anything moved on. One JSON file per
 * undo plan id in $ROLLOUT_DOCTOR_STATE_DIR, else $XDG_STATE_HOME/rollout-doctor/undo,
 * else ~/.local/state/rollout-doctor/undo (0700 directory, 0600 files: they name the
 * cluster and the objects). The file is the user's own, read back under their own
 * credentials, and still validated: an undo names the cluster it was made for and is
 * refused on another.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { REMEDIATION_KINDS, type RemediationPlan } from '../remediation/plan.js';

/** An undo plan id, as planId makes them: the kind, a dash, 16 hex digits. */
const UNDO_ID = /^[a-z-]+-[0-9a-f]{16}$/;

const undoFileSchema = z.object({
  version: z.literal(1),
  savedAt: z.string(),
  cluster: z.object({ server: z.string().min(1), context: z.string() }),
  plan: z
    .object({
      id: z.string().regex(UNDO_ID),
      kind: z.enum(REMEDIATION_KINDS),
      target: z.object({
        kind: z.string().min(1),
        namespace: z.string().min(1),
        name: z.string().min(1),
      }),
      summary: z.string(),
      impact: z.string(),
      warnings: z.array(z.string()),
    })
    .passthrough(),
});

export type UndoFile = z.infer<typeof undoFileSchema> & { plan: RemediationPlan };

/** The directory undos are kept in, or why there is none. */
export function undoDir(env: NodeJS.ProcessEnv): string | null {
  const own = env.ROLLOUT_DOCTOR_STATE_DIR;
  if (own && isAbsolute(own)) return join(own, 'undo');
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'rollout-doctor', 'undo');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.local', 'state', 'rollout-doctor', 'undo');
  return null;
}

export async function saveUndo(
  plan: RemediationPlan,
  cluster: { server: string; context: string },
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
  const dir = undoDir(env);
  if (!dir) return { ok: false, reason: 'no state directory: set ROLLOUT_DOCTOR_STATE_DIR or HOME' };
  const path = join(dir, `${plan.id}.json`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = { version: 1, savedAt: new Date().toISOString(), cluster, plan };
    await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    return { ok: true, path };
  } catch (error) {
    return { ok: false, reason: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** An undo by id (in the state directory) or by file path; a message saying what is wrong otherwise. */
export async function loadUndo(
  idOrPath: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; undo: UndoFile; path: string } | { ok: false; reason: string }> {
  let path = idOrPath;
  if (UNDO_ID.test(idOrPath)) {
    const dir = undoDir(env);
    if (!dir) return { ok: false, reason: 'no state directory: set ROLLOUT_DOCTOR_STATE_DIR or HOME' };
    path = join(dir, `${idOrPath}.json`);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ENOENT'
          ? `no undo ${idOrPath} (looked for ${path}; apply prints the id of the undo it keeps)`
          : `${path}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${path} is not JSON` };
  }
  const parsed = undoFileSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      reason: `${path} is not an undo apply wrote: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    };
  return { ok: true, undo: parsed.data as UndoFile, path };
}
