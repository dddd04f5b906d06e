/**
 * A signed "Propose in Git" outcome (src/worker/propose-processor.ts), posted in the thread
 * of the message whose button was pressed, in the thread's language: the pull request's
 * link (opened or updated, with who approved), or why none was. The address and the
 * reasons are the worker's text: they stay text (`say`), each adapter escapes them.
 */
import { UnrecoverableError } from 'bullmq';
import { wordsIn } from '../../i18n/catalogue.js';
import { platformOf } from '../../platforms/chat-refs.js';
import type { NotifyJob } from '../../queue/schemas.js';
import type { ChatMessage, Rich } from '../model.js';
import type { ChatServices } from '../services.js';
import { approversText } from '../use-cases/approvers.js';
import { PROPOSE_CHAT_WORDS } from '../words/propose.js';
import { threadLang } from './outcome-delivery.js';

type Proposal = Extract<NotifyJob, { kind: 'proposal-outcome' }>;

/** What the thread reads of a proposal's outcome. */
function proposalMessage(
  job: Proposal,
  who: Rich,
  lang: Parameters<typeof wordsIn>[1],
  kind: string,
): ChatMessage {
  const w = wordsIn(PROPOSE_CHAT_WORDS, lang);
  const why = job.detail ?? '';
  let text: Rich;
  switch (job.status) {
    case 'opened':
    case 'updated':
      text =
        job.url && job.number
          ? w[job.status]({ kind, url: job.url, number: job.number, who, file: job.detail ?? '' })
          : w.notProposed({ kind, why: 'the pull request named no address' });
      break;
    case 'unchanged':
      text = w.unchanged({ kind, file: why });
      break;
    case 'by-hand':
      text = w.byHand({ kind, why });
      break;
    case 'refused':
    case 'failed':
      text = w.notProposed({ kind, why });
      break;
  }
  return { summary: text, parts: [{ kind: 'paragraph', text }] };
}

export async function deliverProposal(
  services: Pick<ChatServices, 'logger'> &
    Partial<Pick<ChatServices, 'chats' | 'policy' | 'subscriptions' | 'config' | 'plans'>>,
  job: Proposal,
): Promise<void> {
  const platform = platformOf(job);
  const adapter = services.chats?.[platform];
  if (!adapter)
    throw new UnrecoverableError(
      `proposal outcome for a message in ${platform}, which this app does not serve`,
    );
  const lang = await threadLang(services, job);
  const stored = await services.plans?.get(job.planId).catch(() => null);
  const who = approversText(
    adapter.platform,
    job.approvedBy,
    services.policy?.names ?? {},
    services.policy?.personOf,
  );
  const thread = { platform: adapter.platform, id: job.channel, thread: job.messageTs };
  await adapter.post(thread, proposalMessage(job, who, lang, stored?.plan.kind ?? job.planId));
}
