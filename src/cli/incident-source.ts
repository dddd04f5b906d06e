/**
 * `postmortem --incident ID` without a log: the incident's record as Redis keeps it
 * (src/queue/incident-journal.ts), read with REDIS_URL. A bad setting is bad input
 * (exit 2); a Redis that cannot be reached is exit 3, like a cluster (DESIGN.md §3).
 */
import { ConfigError, loadIncidentReaderConfig } from '../config/environment.js';
import { ClusterError } from '../kube/errors.js';
import type { TimedEvent } from '../postmortem/audit-line.js';
import { createProducerConnection } from '../queue/connection.js';
import { incidentsKept, readIncidentJournal } from '../queue/incident-journal.js';
import { UsageError } from './io.js';
import { usageError } from './usage-words.js';

/** The events of incident `id` (or of the one incident kept under `NAMESPACE/NAME`). */
export async function fromRedis(
  id: string,
  env: NodeJS.ProcessEnv,
): Promise<{ events: TimedEvent[]; note?: string }> {
  let config;
  try {
    config = loadIncidentReaderConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.problems.join('; '));
    throw error;
  }
  const redis = createProducerConnection(config.redis.target, { lazyConnect: true });
  redis.on('error', () => undefined); // the failing command says it
  try {
    try {
      await redis.connect();
    } catch (error) {
      throw new ClusterError(`Redis unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parts = id.split('/').length;
    const full = parts === 3 ? id : (await incidentsKept(redis)).find((kept) => kept.endsWith(`/${id}`));
    if (parts < 2 || parts > 3 || full === undefined)
      throw usageError('noIncidentRecord', { value: id, form: 'CLUSTER/NAMESPACE/NAME' });
    const log = await readIncidentJournal(redis, full);
    if (log.events.length === 0)
      throw usageError('incidentNotKept', { value: full, setting: 'ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS' });
    const skipped = log.foreign + log.unreadable;
    return {
      events: log.events,
      ...(skipped > 0
        ? { note: `skipped ${skipped} entries of the record that are not audit lines this version reads` }
        : {}),
    };
  } finally {
    redis.disconnect();
  }
}
