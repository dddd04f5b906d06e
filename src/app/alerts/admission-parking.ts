/**
 * A warned apply is announced only once the cluster shows it. The
 * webhook answers before the API server stores the object, and other admission steps
 * (another webhook, a quota, a policy) may still refuse it; a review can also be made
 * up. So the app parks the announcement (`rd:alerts:admission-parked:<workload>`, the
 * app's mark over it, PARK_SECONDS) and posts it when a diagnosis of the workload (the
 * worker's watch sees the rollout start and diagnoses it; an alert's or a person's run
 * does as well, and the app asks for one itself a few seconds after parking, so no
 * watch is needed) read the object with the same uid at that generation or later. An
 * apply that never reached the cluster posts nothing and holds no thread key: its
 * parked announcement just expires. One parked announcement per workload (the latest);
 * the webhook already sends at most one per workload per ten minutes.
 */
import type { Redis } from 'ioredis';
import { workloadHash } from '../../queue/alert-keys.js';
import { redisKeys } from '../../queue/redis-keys.js';
import {
  markedJson,
  readMarkedJson,
  type RecordSigner,
  type RecordVerifier,
} from '../../queue/record-mark.js';
import { notifyJobSchema, type NotifyJob } from '../../queue/schemas.js';
import type { AdmissionThreadOutcome } from './admission-threads.js';
import type { AdmissionWarningJob } from './messages.js';
import type { RunResult } from './results.js';

/** How long a parked announcement waits for the cluster to show its object. */
export const PARK_SECONDS = 600;
/**
 * The app's own read of the object comes this long after parking: the webhook answers
 * before the API server stores the object (and other admission steps may still run).
 * Best effort (an in-process timer): a read too early, or lost with the process, leaves
 * the announcement to the watch's run, an alert's, or a person's.
 */
export const READ_BACK_DELAY_MS = 5_000;

const DOMAIN = 'admission-parked';

// Deletes the parked announcement only if it is still the one read: one replica posts it.
const TAKE_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

interface AdmissionParkingDeps {
  redis: Pick<Redis, 'set' | 'get' | 'del' | 'eval'>;
  /** Opens the workload's thread with the announcement (admission-threads.ts). */
  open: (job: AdmissionWarningJob) => Promise<Exclude<AdmissionThreadOutcome, 'parked'>>;
  /** Queues a read of the workload (a background diagnosis) whose result `confirm` sees. */
  readBack?: (job: AdmissionWarningJob) => Promise<void>;
  readBackDelayMs?: number;
  /** The app's mark on what it parks, and its check (record-mark.ts); without it (tests) unmarked. */
  records?: { signer: RecordSigner; verifier: RecordVerifier };
  logger: { info(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

interface AdmissionParking {
  /** Holds a verified announcement until the cluster shows its object. */
  park(job: AdmissionWarningJob): Promise<'parked'>;
  /**
   * A finished run: when it read a parked apply's object at its generation, announces
   * it (once, across replicas). Never throws: a failure parks it again for the next run.
   */
  confirm(result: RunResult): Promise<AdmissionThreadOutcome | 'none' | 'waiting'>;
}

/** A parked value's job, only an admission warning. */
function asAdmission(job: NotifyJob | undefined): AdmissionWarningJob | undefined {
  return job?.kind === 'admission-warning' ? job : undefined;
}

export function createAdmissionParking(deps: AdmissionParkingDeps): AdmissionParking {
  const { redis, records } = deps;
  const keyOf = (job: Pick<AdmissionWarningJob, 'cluster' | 'workload'>): string =>
    redisKeys.admissionParked(workloadHash({ cluster: job.cluster, ...job.workload }));
  const encode = (key: string, job: AdmissionWarningJob): string => {
    const json = JSON.stringify(job);
    return records ? markedJson(DOMAIN, json, (j) => ({ key, json: j }), records.signer) : json;
  };
  const decode = (key: string, value: string): AdmissionWarningJob | undefined => {
    const covered = (json: string): unknown => ({ key, json });
    if (records)
      return asAdmission(readMarkedJson(DOMAIN, value, covered, notifyJobSchema, records.verifier.keys));
    try {
      const parsed = notifyJobSchema.safeParse(JSON.parse(value));
      return asAdmission(parsed.success ? parsed.data : undefined);
    } catch {
      return undefined;
    }
  };

  return {
    async park(job) {
      const key = keyOf(job);
      await redis.set(key, encode(key, job), 'EX', PARK_SECONDS);
      const { readBack } = deps;
      if (readBack) {
        const timer = setTimeout(() => {
          readBack(job).catch((error: unknown) =>
            deps.logger.info({ err: error, key }, 'warned apply not read back: left to the next run'),
          );
        }, deps.readBackDelayMs ?? READ_BACK_DELAY_MS);
        timer.unref();
      }
      return 'parked';
    },
    async confirm(result) {
      if (result.outcome.status !== 'diagnosed') return 'none';
      const { target, observed } = result.outcome.diagnosis;
      const key = keyOf({ cluster: result.cluster, workload: target });
      let value: string | null;
      try {
        value = await redis.get(key);
      } catch (error) {
        deps.logger.info({ err: error, key }, 'parked warned apply not read');
        return 'none';
      }
      if (value === null) return 'none';
      const job = decode(key, value);
      const same =
        job !== undefined &&
        job.cluster === result.cluster &&
        job.workload.kind === target.kind &&
        job.workload.namespace === target.namespace &&
        job.workload.name === target.name;
      if (!same) {
        records?.verifier.onForged('parked warned apply', key);
        await redis.del(key).catch(() => undefined);
        return 'none';
      }
      // The apply is in the cluster once its object (the same one: uid) is at its generation.
      const reached =
        observed.generation >= (job.generation ?? 1) && (job.uid === undefined || job.uid === observed.uid);
      if (!reached) {
        deps.logger.debug(
          { key, generation: job.generation, observed: observed.generation },
          'warned apply not in the cluster yet: not announced',
        );
        return 'waiting';
      }
      try {
        if ((await redis.eval(TAKE_IF, 1, key, value)) !== 1) return 'none'; // another replica took it
        return await deps.open(job);
      } catch (error) {
        await redis.set(key, value, 'EX', PARK_SECONDS, 'NX').catch(() => undefined);
        deps.logger.info({ err: error, key }, 'warned apply not announced: parked again for the next run');
        return 'none';
      }
    },
  };
}
