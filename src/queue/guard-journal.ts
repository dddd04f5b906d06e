/**
 * The replication guard's journal (src/queue/replication-guard.ts): each write the
 * guard watches (no replica confirmed it yet) is kept as one JSON file in a directory
 * until a replica has it or it was written again, so a process that restarts during a
 * failover still writes again what the failover lost (`load`, then the guard's
 * `restore`). A file is written whole (temporary file, fsync, rename): a crash leaves
 * the old record or the new one, never half of one. Files that do not parse are
 * dropped on load. ROLLOUT_DOCTOR_GUARD_DIR (docs/operations.md, "What Redis can lose").
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Redis } from 'ioredis';
import {
  createReplicationGuard,
  type GuardJournal,
  type GuardOptions,
  type JournalRecord,
  type ReplicationGuard,
} from './replication-guard.js';

const ID = /^[a-z0-9-]{1,64}$/;

const recordSchema = z.object({
  id: z.string().regex(ID),
  label: z.string().max(100),
  fields: z.record(z.string(), z.unknown()),
  replay: z.object({ kind: z.string().max(100), data: z.unknown() }),
  mark: z.object({ replid: z.string().max(100), offset: z.number() }).optional(),
  since: z.number(),
});

export interface FileJournal extends GuardJournal {
  /** The records kept by an earlier process, oldest first; files that do not parse are removed, named in `dropped`. */
  load(): { records: JournalRecord[]; dropped: string[] };
}

/** A journal in `dir` (made if missing, mode 0700). */
export function createFileJournal(dir: string): FileJournal {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (id: string): string => {
    if (!ID.test(id)) throw new Error(`bad journal record id ${JSON.stringify(id)}`);
    return join(dir, `${id}.json`);
  };
  return {
    put(record) {
      const target = file(record.id);
      const temporary = `${target}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, JSON.stringify(record));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, target);
    },
    remove(id) {
      rmSync(file(id), { force: true });
    },
    load() {
      const records: JournalRecord[] = [];
      const dropped: string[] = [];
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (!name.endsWith('.json')) {
          if (name.endsWith('.json.tmp')) rmSync(path, { force: true });
          continue;
        }
        try {
          const parsed = recordSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
          if (`${parsed.id}.json` !== name) throw new Error('id and file name differ');
          records.push({ ...parsed, mark: parsed.mark });
        } catch {
          dropped.push(name);
          rmSync(path, { force: true });
        }
      }
      return { records: records.sort((a, b) => a.since - b.since), dropped };
    },
  };
}

/**
 * The process's replication guard on `redis` (REDIS_WAIT_*): with a journal directory,
 * what an earlier process left there is watched again at once, each record redone by
 * the replayer of its kind.
 */
export function startReplicationGuard(
  redis: Redis,
  wait: { replicas: number; timeoutMs: number; journalDir?: string },
  options: Omit<GuardOptions, 'replicas' | 'timeoutMs' | 'journal'> & {
    replayers: Record<string, (data: unknown) => Promise<void>>;
  },
): ReplicationGuard {
  const { replayers, ...guardOptions } = options;
  const journal = wait.journalDir === undefined ? undefined : createFileJournal(wait.journalDir);
  const guard = createReplicationGuard(redis, {
    ...guardOptions,
    replicas: wait.replicas,
    timeoutMs: wait.timeoutMs,
    ...(journal ? { journal } : {}),
  });
  if (journal) {
    const { records, dropped } = journal.load();
    if (dropped.length > 0)
      options.logger.warn({ files: dropped.length }, 'unreadable replication journal records dropped');
    if (records.length > 0) {
      options.logger.info(
        { records: records.length },
        'replication journal: watching again what an earlier process wrote',
      );
      guard.restore(records, replayers);
    }
  }
  return guard;
}
