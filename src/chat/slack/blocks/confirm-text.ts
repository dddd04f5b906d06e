import type { RemediationPlan } from '../../../remediation/plan.js';
import { confirmDialogText as confirmWords } from '../../use-cases/confirm-text.js';
import { plainText, type PlainText } from './mrkdwn.js';
import { LIMITS } from './text.js';

export {
  CLUSTER_WIDE,
  PATCH_POINTER,
  restoredInWords,
  rolloutInWords,
  undoPatchesBack,
} from '../../use-cases/confirm-text.js';

/** The confirm dialog's text as a Slack plain_text (src/chat/use-cases/confirm-text.ts). */
export function confirmDialogText(plan: RemediationPlan, options: { undo?: boolean } = {}): PlainText {
  return plainText(confirmWords(plan, options, LIMITS.confirmText), LIMITS.confirmText);
}
