/**
 * An incident's record kept in Redis: every audit event that names a
 * workload is also appended, as its audit line, to a stream per incident
 * (`rd:incident:<cluster>/<namespace>/<workload>`, redis-keys.ts), where it happens
 * (the app's approvals and refusals, the worker's diagnoses and writes). The stream
 * outlives the chat thread, and Redis replicates it, so a failover keeps it (but for
 * the writes of the last moment before it: replication is asynchronous, DESIGN.md §7).
 * Entries older than the retention are trimmed at each append and the key expires a
 * retention after the last one. `rollout-doctor postmortem --incident ID` reads it back.
 */
import type { Redis } from 'ioredis';
import { createAudit, type Audit, type AuditEvent } from '../audit.js';
import type { Logger } from '../logger.js';
import { incidentIdOf } from '../postmortem/build.js';
import { auditLineOf, readAuditLog, type AuditLog } from '../postmortem/read-audit.js';
import { redisKeys } from './redis-keys.js';

/** Entries one incident keeps at most: an alert storm cannot grow one stream without end. */
export const MAX_INCIDENT_ENTRIES = 10_000;

export interface IncidentJournal {
  append(at: number, event: AuditEvent): Promise<void>;
}

/** @example createIncidentJournal(redis, { retentionMs: 30 * 86_400_000 }) */
export function createIncidentJournal(redis: Redis, options: { retentionMs: number }): IncidentJournal {
  return {
    async append(at, event) {
      const id = incidentIdOf(event);
      if (id === undefined) return;
      const key = redisKeys.incident(id);
      const oldest = Math.max(0, at - options.retentionMs);
      await redis
        .multi()
        // Trim by age (MINID, by the entries' ms ids) and by count, at once with the append.
        .xadd(key, 'MAXLEN', '~', MAX_INCIDENT_ENTRIES, '*', 'line', auditLineOf({ at, event }))
        .xtrim(key, 'MINID', '~', String(oldest))
        .pexpire(key, options.retentionMs)
        .exec();
    },
  };
}

/**
 * `audit` that also keeps each event in its incident's record. The audit line is
 * written first and always; a Redis that refuses the append is logged, never thrown
 * (an approval must not fail because its record could not be kept).
 */
export function journaled(
  audit: Audit,
  journal: IncidentJournal,
  logger: Logger,
  now: () => number = Date.now,
): Audit {
  return {
    record(event) {
      audit.record(event);
      journal
        .append(now(), event)
        .catch((error: unknown) =>
          logger.warn({ err: error, planId: event.planId }, 'incident record: audit event not kept in Redis'),
        );
    },
  };
}

/** The process's audit (src/audit.ts), each event also kept in its incident's record for `retentionMs`. */
export function journaledAudit(logger: Logger, redis: Redis, retentionMs: number): Audit {
  return journaled(createAudit(logger), createIncidentJournal(redis, { retentionMs }), logger);
}

/** The record of incident `id` as its stream holds it, each line checked as a log's are. */
export async function readIncidentJournal(redis: Redis, id: string): Promise<AuditLog> {
  const entries = await redis.xrange(redisKeys.incident(id), '-', '+', 'COUNT', MAX_INCIDENT_ENTRIES);
  const lines = entries.map(([, fields]) => {
    const at = fields.indexOf('line');
    return at >= 0 && at % 2 === 0 ? (fields[at + 1] ?? '') : '';
  });
  return readAuditLog(lines.join('\n'));
}

/** The incidents Redis keeps a record of (at most `limit`), by a SCAN of their keys. */
export async function incidentsKept(redis: Redis, limit = 200): Promise<string[]> {
  const prefix = redisKeys.incident('');
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) if (found.length < limit) found.push(key.slice(prefix.length));
  } while (cursor !== '0' && found.length < limit);
  return found.sort();
}
