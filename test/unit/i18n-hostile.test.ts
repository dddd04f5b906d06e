/**
 * Untrusted text stays text in every language: names from the cluster that carry Slack
 * markup, a mention or terminal escapes are escaped (Slack), shown as text (Teams) and
 * cleaned (terminal) in the Korean messages as in the English ones.
 */
import { describe, expect, it } from 'vitest';
import { resultMessage } from '../../src/chat/use-cases/result.js';
import { renderMessage } from '../../src/chat/slack/render.js';
import { renderText } from '../../src/report/text.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { crashScenario } from '../support/crash-fixtures.js';

const HOSTILE = '<!channel> *ko* <https://evil.example|승인> \u001b]8;;https://evil.example\u0007x\u001b[31m';

function hostile(): Diagnosis {
  const d = diagnose(crashScenario().snapshot);
  const [top, ...rest] = d.findings;
  if (!top?.says || top.says.key !== 'crash-loop-on-node') throw new Error('seed B changed');
  return {
    ...d,
    findings: [
      {
        ...top,
        says: {
          key: 'crash-loop-on-node',
          params: { ...top.says.params, name: HOSTILE, badNodes: HOSTILE, containers: HOSTILE },
        },
      },
      ...rest,
    ],
  };
}

describe('hostile names in Korean output', () => {
  it('are escaped in Slack mrkdwn: no mention, link or bold of theirs', () => {
    const { message, thread } = resultMessage({
      cluster: 'prod',
      diagnosis: hostile(),
      dryRuns: {},
      plans: {},
      requester: 'U0ASK',
      platform: 'slack',
      lang: 'ko',
    });
    const slack = JSON.stringify([renderMessage(message), ...thread.map((m) => renderMessage(m))]);
    expect(slack).toContain('노드에서만 CrashLoopBackOff를 반복합니다');
    expect(slack).not.toContain('<!channel>');
    expect(slack).not.toContain('<https://evil.example');
    expect(slack).toContain('&lt;!channel&gt;');
  });

  it('are cleaned of terminal escapes in the Korean text report', () => {
    const out = renderText(hostile(), { lang: 'ko' });
    expect(out).toContain('노드에서만 CrashLoopBackOff를 반복합니다');
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('\u0007');
  });
});
