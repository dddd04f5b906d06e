/**
 * Where the admission webhook puts its announcements (announce.ts): one Redis stream,
 * `rd:admission:announce` (redisKeys.admissionAnnounce), each entry a job signed with the
 * webhook's own key (ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY, signer 'admission':
 * src/queue/notify-signature.ts), over a fail-fast connection (no offline queue,
 * bounded adds). The webhook only appends (XADD, capped at MAX_ENTRIES): its Redis user
 * may run no other command and touch no other key, so it can neither pause nor read the
 * app's queues. The app verifies each entry and moves it into its alert
 * notify lane (src/app/notify/announce-mover.ts); it posts nothing it cannot verify, and
 * the key signs nothing but warned applies.
 */
import type { Logger } from '../logger.js';
import { createProducerConnection, closeConnection, waitForReady } from '../queue/connection.js';
import { signNotify } from '../queue/notify-signature.js';
import { redisKeys } from '../queue/redis-keys.js';
import type { SigningKey } from '../trust/approval-signature.js';
import { SEND_TIMEOUT_MS, type AdmissionWarningJob } from './announce.js';

/** The stream keeps about this many entries (XADD MAXLEN ~): the app moves them within seconds. */
const MAX_ENTRIES = 10_000;

export interface AnnounceQueue {
  /** Appends the signed job; `dedupId` is the app's to derive again (it trusts no field of an entry unsigned). */
  send: (job: AdmissionWarningJob, dedupId: string) => Promise<void>;
  close: () => Promise<void>;
}

export function announceQueue(options: {
  redisUrl: string;
  cluster: string;
  key: SigningKey;
  logger: Logger;
}): AnnounceQueue {
  // Only AUTH and XADD reach Redis: no ready check (INFO), no client info (CLIENT SETINFO).
  const connection = createProducerConnection(options.redisUrl, {
    enableReadyCheck: false,
    disableClientInfo: true,
  });
  connection.on('error', (error) => options.logger.debug({ err: error }, 'announcement Redis connection'));
  return {
    send: async (job) => {
      const signed = JSON.stringify(signNotify(job, 'admission', options.key));
      // Bounded by the announcer (SEND_TIMEOUT_MS), as every send; the first waits for the connection.
      await waitForReady(connection, SEND_TIMEOUT_MS);
      await connection.xadd(redisKeys.admissionAnnounce(), 'MAXLEN', '~', MAX_ENTRIES, '*', 'job', signed);
    },
    close: async () => {
      await closeConnection(connection).catch(() => undefined);
    },
  };
}
