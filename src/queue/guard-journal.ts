/**
 * The replication guard's journal (src/queue/replication-guard.ts): each write the
 * guard watches (no replica confirmed it yet) is kept as one JSON file in a directory
 * until a replica has it or it was written again, so a process that restarts during a
 * failover still writes again what the failover lost (`load`, then the guard's
 * `restore`). A file is written whole (temporary file, fsync, rename): a crash leaves
 * the old record or the new one, never half of one. Files that do not parse are
 * dropped on load. REDIS_WAIT_JOURNAL_DIR (docs/operations.md, "What Redis can lose").
 *
 * A record is replayed with the process's own rights (an app's claim and remediation
 * job, a worker's plan and outcome), so each carries the process's MAC: HMAC-SHA256
 * under a key derived from a secret only that process holds (the app's approval key,
 * a worker's seal key; `journalMacKey`), over the record's canonical JSON in a domain
 * of its own. A record whose MAC does not verify (written or edited by anyone who can
 * write the directory, or by a process with another key) is refused on load: removed,
 * never replayed, and counted in `refused`.
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
import { createHmac, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { canonicalJson } from '../trust/plan-seal.js';
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
  mac: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

const MAC_DOMAIN = 'rollout-doctor guard journal v1';

/**
 * The journal's MAC key, derived (HKDF-SHA256) from a secret the process alone holds:
 * the app's approval signing key, or a worker's current seal key. A journal key of its
 * own, so a MAC here is never a seal or a signature anywhere else.
 */
export function journalMacKey(secret: KeyObject | Buffer): Buffer {
  const material = Buffer.isBuffer(secret) ? secret : secret.export({ format: 'der', type: 'pkcs8' });
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), MAC_DOMAIN, 32));
}

function macOf(key: Buffer, record: JournalRecord): string {
  const { id, label, fields, replay, mark, since } = record;
  // As JSON keeps it (undefined fields gone), so the MAC written is the MAC read.
  const data: unknown = JSON.parse(JSON.stringify({ id, label, fields, replay, mark, since }));
  return createHmac('sha256', key)
    .update(`${MAC_DOMAIN}\n${canonicalJson(data)}`)
    .digest('base64url');
}

function macVerifies(key: Buffer, record: JournalRecord, mac: string): boolean {
  const expected = Buffer.from(macOf(key, record));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface FileJournal extends GuardJournal {
  /**
   * The records kept by an earlier process, oldest first. Files that do not parse are
   * removed, named in `dropped`; records whose MAC does not verify are removed, named in
   * `refused`. Neither is replayed.
   */
  load(): { records: JournalRecord[]; dropped: string[]; refused: string[] };
}

/** A journal in `dir` (made if missing, mode 0700), each record under `macKey` (journalMacKey). */
export function createFileJournal(dir: string, macKey: Buffer): FileJournal {
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
        writeSync(fd, JSON.stringify({ ...record, mac: macOf(macKey, record) }));
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
      const refused: string[] = [];
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (!name.endsWith('.json')) {
          if (name.endsWith('.json.tmp')) rmSync(path, { force: true });
          continue;
        }
        try {
          const { mac, ...parsed } = recordSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
          if (`${parsed.id}.json` !== name) throw new Error('id and file name differ');
          const record: JournalRecord = { ...parsed, mark: parsed.mark };
          if (macVerifies(macKey, record, mac)) records.push(record);
          else {
            refused.push(name);
            rmSync(path, { force: true });
          }
        } catch {
          dropped.push(name);
          rmSync(path, { force: true });
        }
      }
      return { records: records.sort((a, b) => a.since - b.since), dropped, refused };
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
    /** The process's journal MAC key (journalMacKey). */
    journalKey: Buffer;
  },
): ReplicationGuard {
  const { replayers, journalKey, ...guardOptions } = options;
  const journal = wait.journalDir === undefined ? undefined : createFileJournal(wait.journalDir, journalKey);
  const guard = createReplicationGuard(redis, {
    ...guardOptions,
    replicas: wait.replicas,
    timeoutMs: wait.timeoutMs,
    ...(journal ? { journal } : {}),
  });
  if (journal) {
    const { records, dropped, refused } = journal.load();
    if (dropped.length > 0)
      options.logger.warn({ files: dropped.length }, 'unreadable replication journal records dropped');
    if (refused.length > 0)
      options.logger.warn(
        { files: refused.length, audit: true },
        "replication journal records refused: their MAC is not this process's (written or altered by someone else); not replayed",
      );
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
