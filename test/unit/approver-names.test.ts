/**
 * Teams cannot show an Entra object id as a person: the approved card's state line and
 * the outcome replies name approvers as the policy file's `names:` names them, count
 * the rest ("an approver"), and never print an object id; a name with markup stays
 * characters in the card. Slack keeps its mentions.
 */
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/message/rich.js';
import { renderCard } from '../../src/chat/teams/cards.js';
import { approversText, outcomeMessage, stateLine } from '../../src/chat/use-cases/outcome.js';
import type { NotifyJob } from '../../src/queue/schemas.js';

const DANA = '8a3c0e9e-6d55-4c59-9f1e-0c1d2e3f4a5b';
const OTHER = '0f1e2d3c-4b5a-4968-8776-655443322110';
const AT = Date.UTC(2026, 10, 23, 3, 12);
const fix = (approvers: string[], platform: string, names?: Record<string, string>) => ({
  what: 'set-recreate',
  approvers,
  approvedAt: AT,
  platform,
  ...(names ? { names } : {}),
});

describe('approvers on the approved card', () => {
  it('Teams: the policy names an approver; one without a name is "an approver", never the id', () => {
    const line = stateLine('rolled-out', fix([DANA, OTHER], 'teams', { [DANA]: 'Dana Lee' }), AT);
    const text = plainText(line);
    expect(text).toBe(
      'set-recreate approved by Dana Lee and an approver at 2026-11-23 03:12 UTC; rolled out at 2026-11-23 03:12 UTC',
    );
    expect(text).not.toContain(OTHER);
  });

  it('Teams: nobody named reads as a count of approvers', () => {
    expect(plainText(approversText('teams', [DANA]))).toBe('an approver');
    expect(plainText(approversText('teams', [DANA, OTHER]))).toBe('2 approvers');
    // Policy ids are kept lower case; a claim's id in other case still finds its name.
    expect(plainText(approversText('teams', [DANA.toUpperCase()], { [DANA]: 'Dana Lee' }))).toBe('Dana Lee');
  });

  it('Teams: a name with markup stays characters in the card, as its own run', () => {
    const name = 'Dana [x](https://evil.example) **Lee** <at>all</at>';
    const card = JSON.stringify(
      renderCard({
        summary: stateLine('applying', fix([DANA], 'teams', { [DANA]: name }), AT),
        parts: [],
      }),
    );
    // Its own bold run, its link and emphasis characters kept; the card's rule defangs `<at>` (src/chat/teams/cards.ts).
    expect(card).toContain(
      JSON.stringify({
        type: 'TextRun',
        text: 'Dana [x](https://evil.example) **Lee** < at>all< /at>',
        weight: 'Bolder',
      }),
    );
    expect(card).not.toContain(DANA);
    expect(card).not.toContain('"@');
  });

  it('Teams: the outcome reply in the thread names approvers the same way', () => {
    const job = {
      kind: 'remediation-outcome',
      planId: 'set-recreate-trainer',
      cluster: 'prod',
      platform: 'teams',
      channel: '19:gpu@thread.tacv2',
      messageTs: '1732536000002',
      stage: 'applied',
      detail: 'deployment/trainer patched',
      approvedBy: [DANA, OTHER],
    } as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const reply = JSON.stringify(
      renderCard(outcomeMessage(job, 'teams', undefined, AT, { [OTHER]: 'Sam Roe' })),
    );
    expect(reply).toContain('Sam Roe');
    expect(reply).toContain('an approver');
    expect(reply).not.toContain(DANA);
  });

  it('Slack: approvers stay mentions of their ids', () => {
    const line = stateLine('rolled-out', fix(['U0LEAD'], 'slack', { U0LEAD: 'Dana Lee' }), AT);
    expect(line).toContainEqual({ kind: 'mention', person: { platform: 'slack', id: 'U0LEAD' } });
    expect(plainText(line)).not.toContain('Dana Lee');
  });
});
