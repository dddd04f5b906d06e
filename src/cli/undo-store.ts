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
 *
 * The state directory may be shared: another user who can write the undo
 * directory, or its parent, could plant a symlink at the predictable `<id>.json` or
 * swap in an undo aimed at another object. So a directory another user owns or can
 * write (its parent too, unless sticky, as /tmp) is refused, never re-moded; a file is
 * written under a random name with O_EXCL | O_NOFOLLOW and renamed into place (a rename
 * replaces a symlink, never writes through it); and a file is loaded only through
 * O_NOFOLLOW, only when it is a regular file the user owns that nobody else can write.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import {
  PATCH_CONTENT_TYPES,
  REMEDIATION_KINDS,
  type PatchType,
  type RemediationPlan,
  type UncheckedPlan,
} from '../remediation/plan.js';
import { checkPlanPayload } from '../remediation/patch-allowlist.js';

/** An undo plan id, as planId makes them: the kind, a dash, 16 hex digits. */
const UNDO_ID = /^[a-z-]+-[0-9a-f]{16}$/;

const patchSchema = z.object({
  type: z.enum(Object.keys(PATCH_CONTENT_TYPES) as [PatchType, ...PatchType[]]),
  body: z.unknown(),
});

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
      // What the write and its preconditions are read from: a file missing them is not
      // an undo (its kind's payload is checked after: checkPlanPayload).
      patch: z.union([patchSchema, z.null()]),
      inverse: z.union([patchSchema, z.null()]).optional(),
      preconditions: z
        .object({
          uid: z.string(),
          generation: z.number(),
          fields: z.array(z.object({ path: z.string() }).passthrough()),
        })
        .passthrough(),
      addresses: z.string(),
    })
    .passthrough(),
});

type UndoFile = z.infer<typeof undoFileSchema> & { plan: RemediationPlan };

/** The directory undos are kept in, or why there is none. */
function undoDir(env: NodeJS.ProcessEnv): string | null {
  const own = env.ROLLOUT_DOCTOR_STATE_DIR;
  if (own && isAbsolute(own)) return join(own, 'undo');
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'rollout-doctor', 'undo');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.local', 'state', 'rollout-doctor', 'undo');
  return null;
}

/** This process's user, or null where there are no POSIX owners (then no owner check). */
const myUid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Why `dir` (lstat'ed, not followed) is no safe place for undos, or null. */
async function unsafeDir(dir: string, role: 'undo' | 'parent'): Promise<string | null> {
  const st = await lstat(dir);
  if (!st.isDirectory()) return `${dir} is not a directory (a symlink is not followed)`;
  const uid = myUid();
  const sticky = (st.mode & 0o1000) !== 0;
  if (role === 'undo' && uid !== null && st.uid !== uid)
    return `${dir} belongs to another user (uid ${st.uid}); undos are kept only in a directory of your own`;
  if ((st.mode & 0o022) !== 0 && !(role === 'parent' && sticky))
    return `${dir} can be written by other users (mode ${(st.mode & 0o7777).toString(8)}); make it yours alone (chmod go-w) or set ROLLOUT_DOCTOR_STATE_DIR elsewhere`;
  return null;
}

/** Creates the undo directory (0700) where missing; refuses one others could tamper with. */
async function safeUndoDir(dir: string, create: boolean): Promise<string | null> {
  if (create) await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  const parent = await unsafeDir(dirname(dir), 'parent');
  if (parent) return parent;
  if (create) await mkdir(dir, { recursive: true, mode: 0o700 });
  return unsafeDir(dir, 'undo');
}

/** Why an opened undo file is not to be trusted, or null. */
function unsafeFile(path: string, st: { isFile(): boolean; uid: number; mode: number }): string | null {
  if (!st.isFile()) return `${path} is not a regular file`;
  const uid = myUid();
  if (uid !== null && st.uid !== uid) return `${path} belongs to another user (uid ${st.uid}); not loaded`;
  if ((st.mode & 0o022) !== 0)
    return `${path} can be written by other users (mode ${(st.mode & 0o7777).toString(8)}); not loaded`;
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
  const temp = join(dir, `.${plan.id}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    const unsafe = await safeUndoDir(dir, true);
    if (unsafe) return { ok: false, reason: unsafe };
    const file = { version: 1, savedAt: new Date().toISOString(), cluster, plan };
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    return { ok: true, path };
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    return { ok: false, reason: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** An undo by id (in the state directory) or by file path; a message saying what is wrong otherwise. */
export async function loadUndo(
  idOrPath: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; undo: UndoFile; path: string } | { ok: false; reason: string }> {
  let path = idOrPath;
  const byId = UNDO_ID.test(idOrPath);
  let text: string;
  try {
    if (byId) {
      const dir = undoDir(env);
      if (!dir) return { ok: false, reason: 'no state directory: set ROLLOUT_DOCTOR_STATE_DIR or HOME' };
      path = join(dir, `${idOrPath}.json`);
      const unsafe = await safeUndoDir(dir, false);
      if (unsafe) return { ok: false, reason: unsafe };
    }
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const unsafe = unsafeFile(path, await handle.stat());
      if (unsafe) return { ok: false, reason: unsafe };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ENOENT'
          ? `no undo ${idOrPath} (looked for ${path}; apply prints the id of the undo it keeps)`
          : code === 'ELOOP'
            ? `${path} is a symlink; an undo is loaded only from a file of your own`
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
  // A file kept under another plan's id (renamed or copied over it) is not that undo.
  if (byId && parsed.data.plan.id !== idOrPath)
    return { ok: false, reason: `${path} holds undo ${parsed.data.plan.id}, not ${idOrPath}; not loaded` };
  // Its payload is its kind's; what it writes is held to the kind's paths against the
  // live object when it is applied (the executor), as for a plan from Redis.
  const within = checkPlanPayload(parsed.data.plan as unknown as UncheckedPlan);
  if (!within.ok) return { ok: false, reason: `${path} is not an undo apply wrote: ${within.reason}` };
  return { ok: true, undo: parsed.data as UndoFile, path };
}
