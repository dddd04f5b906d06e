/**
 * `/rollout-doctor` called as Bolt calls it (issue 28.5): help and usage answered
 * privately in the ack, a refused reader told privately and audited with nothing
 * queued, a diagnosis queued then announced, a dead queue said so.
 */
import { describe, expect, it, vi } from 'vitest';
import { rolloutDoctorCommand } from '../../../src/chat/slack/listeners/commands/rollout-doctor.js';
import { QueueUnavailableError } from '../../../src/queue/producers.js';
import { fakeClient, fakeServices } from '../../support/listener-args.js';

function args(text: string) {
  const ack = vi.fn(async () => undefined);
  const respond = vi.fn(async () => undefined);
  const client = fakeClient();
  const command = { text, user_id: 'U0ASKER', channel_id: 'C1', command: '/rollout-doctor' };
  return { ack, respond, client, all: { command, ack, respond, client, logger: { warn: vi.fn() } } as never };
}

describe('/rollout-doctor', () => {
  it('help: the usage, privately, nothing queued', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const a = args('help');
    await rolloutDoctorCommand(services)(a.all);
    expect(a.ack).toHaveBeenCalledWith(expect.objectContaining({ response_type: 'ephemeral' }));
    expect(enqueueDiagnose).not.toHaveBeenCalled();
  });

  it('a target it cannot read: refused in the ack, audited, nothing queued or posted', async () => {
    const { services, audit, enqueueDiagnose } = fakeServices({
      readPolicy: {
        check: vi.fn(async () => ({
          allowed: false,
          reason: 'namespace vision is not readable from this channel',
        })),
      },
    });
    const a = args('deployment/tracker -n vision');
    await rolloutDoctorCommand(services)(a.all);
    expect(a.ack).toHaveBeenCalledWith({
      response_type: 'ephemeral',
      text: ':no_entry: Not started: namespace vision is not readable from this channel.',
    });
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'not-reader', user: 'U0ASKER' }),
    );
    expect(enqueueDiagnose).not.toHaveBeenCalled();
    expect(a.client.chat.postMessage).not.toHaveBeenCalled();
  });

  it('a diagnosis: queued with the target and the asker, acked, then announced in the channel', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const a = args('deployment/tracker -n vision');
    await rolloutDoctorCommand(services)(a.all);
    // Queued under the answer's deadline (issue 53.1: a late add is withdrawn).
    expect(enqueueDiagnose).toHaveBeenCalledWith(
      {
        mode: 'workload',
        cluster: 'prod',
        target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
        requestedBy: 'U0ASKER',
        // The request's own id (a redo queues the same request).
        request: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      },
      { deadline: expect.objectContaining({ left: expect.any(Function) }) },
    );
    expect(a.ack).toHaveBeenCalledWith();
    expect(a.client.chat.postMessage).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: 'C1',
        text: expect.stringContaining('deployment/tracker in vision'),
      }),
    );
  });

  it('the queue down: said privately, nothing announced', async () => {
    const { services } = fakeServices({
      producers: {
        enqueueDiagnose: vi.fn(async () => Promise.reject(new QueueUnavailableError('redis down'))),
      },
    });
    const a = args('deployment/tracker -n vision');
    await rolloutDoctorCommand(services)(a.all);
    expect(a.ack).toHaveBeenCalledWith(
      expect.objectContaining({ text: expect.stringContaining('queue is unavailable') }),
    );
    expect(a.client.chat.postMessage).not.toHaveBeenCalled();
  });
});
