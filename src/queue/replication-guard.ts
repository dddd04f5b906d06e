import type { Redis } from 'ioredis';

/**
 * Writes an answer depends on (a queued command, an approval's claim and its job),
 * kept until a replica holds them (docs/operations.md, "What Redis can lose").
 *
 * Replication is asynchronous: a master that dies before its replica has a write
 * takes the write with it, and the promoted replica never saw it. `confirm` WAITs for
 * the replicas REDIS_WAIT_REPLICAS asks for (one WAIT out at a time, none while the
 * replicas are known to be away: `waitGate`). When they do not confirm within the WAIT
 * timeout (a replica lagging, or the master dying as it answers), the writes are
 * watched: the master's replication position right after them (INFO replication:
 * replication id and offset) is kept, and checked twice a second. Confirmed once a
 * replica's acknowledged offset passes it; kept across a failover when the new
 * master's history holds it (its previous replication id is the one noted, and the
 * switch came after the offset); lost otherwise, and then `redo` writes them again
 * (each redo is idempotent: a job id that exists is not added twice), and the watch
 * starts over. Judging by offsets is conservative: a later write of another client
 * raises the noted offset, so a loss may be judged where there was none, which costs
 * only a redo that changes nothing.
 *
 * The writes are those made on the connection's current socket before `confirm`: a
 * WAIT or INFO answered on a later socket (ioredis resends unanswered commands after a
 * reconnect, which after a failover reaches the new master) says nothing about them,
 * so they are then judged lost and written again.
 *
 * The watch lives in the process that wrote. With a journal (src/queue/guard-journal.ts)
 * each watched write that says how to redo it from data (`replay`) is kept on disk until
 * settled, and `restore` takes such records up again in a restarted process.
 */

export interface ReplicationInfo {
  role: string;
  replid: string;
  /** The replication id this server followed before it was promoted (zeros: none). */
  replid2: string;
  /** The history of `replid2` this server holds ends just before this offset. */
  secondOffset: number;
  offset: number;
  /** Offsets the connected replicas acknowledged. */
  replicaOffsets: number[];
  /** Replicas connected and in step (`state=online`): those a WAIT can count. */
  replicasOnline: number;
}

interface ReplicationMark {
  replid: string;
  offset: number;
}

/** Reads the fields of `INFO replication` the guard needs. */
export function parseReplicationInfo(text: string): ReplicationInfo {
  const field = (name: string): string => new RegExp(`^${name}:(.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  const replicaOffsets = [...text.matchAll(/^slave\d+:.*\boffset=(\d+)/gm)].map((m) => Number(m[1]));
  const replicasOnline = (text.match(/^slave\d+:.*\bstate=online\b/gm) ?? []).length;
  return {
    role: field('role'),
    replid: field('master_replid'),
    replid2: field('master_replid2'),
    secondOffset: Number(field('second_repl_offset') || -1),
    offset: Number(field('master_repl_offset') || 0),
    replicaOffsets,
    replicasOnline,
  };
}

type Fate =
  /** `wanted` replicas acknowledged the writes. */
  | { kind: 'confirmed' }
  /** Still only on this master. */
  | { kind: 'pending' }
  /** A failover happened and the new master holds them: watched on under its replication id. */
  | { kind: 'kept'; mark: ReplicationMark }
  /** This master's history does not hold them (they died with the old master). */
  | { kind: 'lost' };

/** What became of writes noted at `mark`, judged from the master's INFO replication now. Pure. */
export function judge(mark: ReplicationMark, info: ReplicationInfo, wanted: number): Fate {
  if (info.replid === mark.replid)
    return info.replicaOffsets.filter((o) => o >= mark.offset).length >= wanted
      ? { kind: 'confirmed' }
      : { kind: 'pending' };
  // PSYNC2: a promoted replica keeps the offsets of the history it followed.
  if (info.replid2 === mark.replid && info.secondOffset > mark.offset)
    return { kind: 'kept', mark: { replid: info.replid, offset: mark.offset } };
  return { kind: 'lost' };
}

interface GuardedWrites {
  /** For the log: what was written ('approval', 'command'). */
  label: string;
  fields: Record<string, unknown>;
  /** Writes them again; must be idempotent (it may run when nothing was lost). */
  redo(): Promise<void>;
  /**
   * `socket()` taken before the first of the writes: when the connection lost its socket
   * since, some of them may have gone to a server that is gone (judged lost, written
   * again). Without it, the writes are taken to be on the socket current at `confirm`.
   */
  socket?: number;
  /**
   * The redo as data (JSON), for a journal: a restarted process redoes it with the
   * replayer of that kind (`restore`). Absent: watched in memory only.
   */
  replay?: Replay;
}

/** A redo as data: a replayer's kind and what it writes again. */
export interface Replay {
  kind: string;
  data: unknown;
}

/** A watched write as a journal keeps it. */
export interface JournalRecord {
  id: string;
  label: string;
  fields: Record<string, unknown>;
  replay: Replay;
  mark: ReplicationMark | undefined;
  since: number;
}

/** Where watched writes are kept across a restart (src/queue/guard-journal.ts). */
export interface GuardJournal {
  /** Writes (or overwrites) the record, durably, before `confirm` returns. */
  put(record: JournalRecord): void;
  remove(id: string): void;
}

export interface ReplicationGuard {
  /**
   * WAITs until the writes so far on the connection reach the replicas asked for;
   * when fewer confirm within the timeout, watches them and redoes them once a
   * failover shows they were lost. The replicas asked for and reached by the WAIT.
   */
  confirm(writes: GuardedWrites): Promise<{ wanted: number; reached: number }>;
  /** Which socket of the connection is current (for `GuardedWrites.socket`). */
  socket(): number;
  /** Writes watched now (tests, metrics). */
  pending(): number;
  /**
   * Watches again what a journal kept (a restarted process), each redone by the
   * replayer of its kind; a record of an unknown kind is dropped (logged).
   */
  restore(
    records: readonly JournalRecord[],
    replayers: Record<string, (data: unknown) => Promise<void>>,
  ): void;
  stop(): void;
}

interface GuardLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface GuardOptions {
  replicas: number;
  timeoutMs: number;
  logger: GuardLogger;
  /** How often watched writes are checked (default 500 ms). */
  checkEveryMs?: number;
  /** How long writes are watched at most (default 10 min): a set whose replica stays away. */
  watchForMs?: number;
  /** Keeps watched writes that carry a `replay` across a restart. */
  journal?: GuardJournal;
}

interface Watched extends GuardedWrites {
  /** The journal's record id (writes with a `replay`, under a journal). */
  id?: string;
  /** Undefined: the position could not be read right after the writes (Redis going away). */
  mark: ReplicationMark | undefined;
  since: number;
}

/** INFO replication on `redis`, parsed. */
async function replication(redis: Redis): Promise<ReplicationInfo> {
  return parseReplicationInfo(await redis.info('replication'));
}

/** A server that refuses INFO (an ACL, a managed service's command list): losses cannot be told. */
const refusesInfo = (error: unknown): boolean =>
  error instanceof Error && /unknown command|NOPERM|not allowed|disabled/i.test(error.message);

/** Past the WAIT's own timeout, how long its answer may take before it counts as none (a stalled server). */
export const WAIT_ANSWER_GRACE_MS = 250;

/** `work`'s answer; fails once `ms` have passed without one (the call is left to finish). */
async function answerIn<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis gave no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s answer, or `fallback` when it fails or `ms` pass without one. */
const within = <T>(work: Promise<T>, ms: number, fallback: T): Promise<T> =>
  answerIn(work, ms).catch(() => fallback);

/**
 * WAIT and the replication position, asked on the guard's connection. It counts the
 * sockets the connection lost so far. A WAIT or INFO answered after a loss may come
 * from another server: ioredis resends unanswered commands once it reconnects, and
 * after a failover it reconnects to the new master, where a WAIT counts none of the
 * writes made on the old one (a fresh connection has written nothing: its replicas
 * "have" it at once) and INFO is not the position after them. Such answers confirm
 * nothing and mark nothing: the writes are judged lost, and written again.
 *
 * Each call has a deadline: a WAIT its timeout plus WAIT_ANSWER_GRACE_MS, an INFO the
 * WAIT timeout. A server that does not answer by then (a stall) counts as no replica,
 * and as no position (judged lost, written again once it answers).
 */
function positionReader(redis: Redis, replicas: number, timeoutMs: number) {
  let sockets = 0;
  const onClose = (): void => {
    sockets += 1;
  };
  redis.on('close', onClose);
  return {
    socket: (): number => sockets,
    waitReplicas: (): Promise<number> =>
      within(redis.wait(replicas, timeoutMs).then(Number), timeoutMs + WAIT_ANSWER_GRACE_MS, 0),
    /** The position after the writes, if read on the socket they were made on (`socket`). */
    async markNow(socket: number): Promise<ReplicationMark | undefined> {
      const info = await within(replication(redis), timeoutMs, undefined);
      if (info === undefined || sockets !== socket) return undefined;
      return info.role === 'master' ? { replid: info.replid, offset: info.offset } : undefined;
    },
    stop: (): void => {
      redis.off('close', onClose);
    },
  };
}

/**
 * When the guard WAITs at all. A WAIT blocks its connection, the one every
 * other call of the process is queued on, for up to its timeout when no replica answers:
 * after a failover that left no replica, each confirm's WAIT ran its full timeout, one
 * after the other, and every command queued behind them missed Slack's 3 s.
 *
 * So: at most one WAIT is out at a time. A confirm that comes while one is out joins
 * the next (one WAIT for all who joined: it counts every write made before it). Once
 * a WAIT falls short, the guard stops WAITing: confirms only note the position and
 * watch, as after a WAIT that timed out, until INFO shows the replicas asked for
 * online again (`sawReplicas`, from the watch's checks). A confirm thus waits for at
 * most two WAITs, and none while the replicas are away.
 */
function waitGate(reader: { waitReplicas(): Promise<number> }, replicas: number) {
  let short = false;
  let out: Promise<number> | undefined;
  let next: Promise<number> | undefined;
  const send = (): Promise<number> => {
    const sent = reader.waitReplicas().then((reached) => {
      if (reached < replicas) short = true;
      return reached;
    });
    out = sent;
    void sent.finally(() => {
      if (out === sent) out = undefined;
    });
    return sent;
  };
  return {
    /** Replicas a WAIT after the writes so far reached; 0 without a WAIT while short. */
    reached(): Promise<number> {
      if (short) return Promise.resolve(0);
      if (!out) return send();
      next ??= out.then(() => {
        next = undefined;
        return short ? 0 : send();
      });
      return next;
    },
    /** Whether confirms skip the WAIT now (replicas known to be away). */
    short: (): boolean => short,
    /** INFO saw `online` replicas in step: WAIT again when they are enough. True: WAITing again from now. */
    sawReplicas(online: number): boolean {
      if (!short || online < replicas) return false;
      short = false;
      return true;
    },
  };
}

/**
 * The journal side of the watch: an entry's current mark kept (it gets an id the first
 * time), and the record removed when the entry is forgotten. A failure is logged: the
 * watch in memory goes on.
 */
function journalKeeper(journal: GuardJournal | undefined, watched: Set<Watched>, logger: GuardLogger) {
  let journaled = 0;
  const keep = (entry: Watched): void => {
    if (!journal || !entry.replay) return;
    entry.id ??= `${Date.now().toString(36)}-${process.pid}-${(journaled += 1)}`;
    const { id, label, fields, replay, mark, since } = entry;
    try {
      journal.put({ id, label, fields, replay, mark, since });
    } catch (error) {
      logger.warn({ ...fields, what: label, err: error }, 'watched writes not kept in the journal');
    }
  };
  const forget = (entry: Watched): void => {
    watched.delete(entry);
    if (journal && entry.id !== undefined) {
      try {
        journal.remove(entry.id);
      } catch (error) {
        logger.warn({ ...entry.fields, err: error }, 'journal record not removed');
      }
    }
  };
  return { keep, forget };
}

/** The log line of writes a WAIT did not confirm (`short`: and the guard stops WAITing). */
const unconfirmed = (short: boolean): string =>
  `not yet on the replicas REDIS_WAIT_REPLICAS asks for: watched, and written again if a failover loses them${short ? '; no WAIT until INFO shows the replicas online again' : ''}`;

export function createReplicationGuard(redis: Redis, options: GuardOptions): ReplicationGuard {
  const { replicas, timeoutMs, logger } = options;
  const checkEveryMs = options.checkEveryMs ?? 500;
  const watchForMs = options.watchForMs ?? 10 * 60_000;
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const position = positionReader(redis, replicas, timeoutMs);
  const gate = waitGate(position, replicas);
  const { keep, forget } = journalKeeper(options.journal, watched, logger);

  /**
   * Writes again what a failover lost; watched on until a replica has them (no WAIT:
   * the checks see the replicas' offsets pass the new mark).
   */
  const redo = async (entry: Watched): Promise<void> => {
    logger.warn(
      { ...entry.fields, what: entry.label },
      'a Redis failover lost these writes: writing them again',
    );
    const socket = position.socket();
    try {
      await entry.redo();
    } catch (error) {
      logger.warn({ ...entry.fields, err: error }, 'writing again failed; retried at the next check');
      return; // the mark still judges them lost: the next check redoes them
    }
    entry.mark = await position.markNow(socket);
    keep(entry);
  };
  const check = async (): Promise<void> => {
    let info: ReplicationInfo;
    try {
      // With a deadline: a check that hung on a stalled server would stop every later one.
      info = await answerIn(replication(redis), Math.max(timeoutMs, 4 * checkEveryMs));
    } catch (error) {
      if (!refusesInfo(error)) return; // Redis away: the next check looks again
      for (const entry of [...watched]) {
        logger.warn(
          { ...entry.fields },
          'Redis refuses INFO: whether a failover lost these writes is unknown',
        );
        forget(entry);
      }
      return;
    }
    if (info.role !== 'master') return;
    if (gate.sawReplicas(info.replicasOnline))
      logger.info({ replicas: info.replicasOnline }, 'Redis replicas online again: WAITing for them again');
    for (const entry of [...watched]) {
      const fate = entry.mark === undefined ? { kind: 'lost' as const } : judge(entry.mark, info, replicas);
      if (fate.kind === 'confirmed') forget(entry);
      else if (fate.kind === 'kept') {
        entry.mark = fate.mark;
        keep(entry);
      } else if (fate.kind === 'lost') await redo(entry);
      else if (Date.now() - entry.since > watchForMs) {
        forget(entry);
        logger.warn({ ...entry.fields }, 'no replica confirmed these writes in time: watch given up');
      }
    }
  };
  const schedule = (): void => {
    if (stopped || timer !== undefined || (watched.size === 0 && !gate.short())) return;
    timer = setTimeout(() => {
      void check()
        .catch(() => undefined)
        .finally(() => {
          timer = undefined;
          schedule();
        });
    }, checkEveryMs);
    timer.unref();
  };

  return {
    async confirm(writes) {
      if (replicas === 0) return { wanted: 0, reached: 0 };
      const socket = writes.socket ?? position.socket();
      const skipped = gate.short();
      const waited = await gate.reached();
      const reached = position.socket() === socket ? waited : 0;
      if (reached >= replicas) return { wanted: replicas, reached };
      const entry: Watched = { ...writes, mark: await position.markNow(socket), since: Date.now() };
      watched.add(entry);
      keep(entry);
      // While the replicas are away, the WAIT that found it out said so, not every write.
      if (!skipped)
        logger.warn(
          { ...writes.fields, what: writes.label, wanted: replicas, reached },
          unconfirmed(gate.short()),
        );
      schedule();
      return { wanted: replicas, reached };
    },
    socket: () => position.socket(),
    pending: () => watched.size,
    restore(records, replayers) {
      for (const record of records) {
        const replay = replayers[record.replay.kind];
        if (!replay) {
          logger.warn({ ...record.fields, what: record.label }, 'journal record of an unknown kind: dropped');
          forget({ ...record, redo: async () => undefined });
          continue;
        }
        watched.add({ ...record, redo: () => replay(record.replay.data) });
      }
      schedule();
    },
    stop() {
      stopped = true;
      position.stop();
      clearTimeout(timer);
      watched.clear();
    },
  };
}
