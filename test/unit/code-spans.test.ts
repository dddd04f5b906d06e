import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, mrkdwn } from '../../src/chat/slack/blocks/mrkdwn.js';
import { runCli } from '../../src/cli/run-cli.js';
import { cleanText } from '../../src/text/clean.js';
import { codeSpan, plainCodeSpans } from '../../src/text/code-span.js';
import { fakeIo } from '../support/cli-io.js';

describe('our code spans stay code; cluster text stays text (issue 31.5)', () => {
  const ours = `${codeSpan('kubectl rollout status')} prints "Waiting for \`x\` rollout" and waits forever`;

  it('Slack shows our span as inline code and the cluster value with look-alike backticks', () => {
    const text = escapeMrkdwn(ours);
    expect(text.startsWith('`kubectl rollout status` prints')).toBe(true);
    expect(text).toContain('Waiting for ˋxˋ rollout');
    // through the template, as finding text is interpolated
    expect(mrkdwn`*Why:* ${ours}`).toContain('*Why:* `kubectl rollout status` prints');
  });

  it('the terminal and JSON show plain backticks', () => {
    expect(cleanText(ours)).toBe(
      '`kubectl rollout status` prints "Waiting for `x` rollout" and waits forever',
    );
    expect(plainCodeSpans(ours)).toBe(cleanText(ours));
  });

  it('a value cannot open, close or escape a span', () => {
    expect(codeSpan('a\uE001 <!channel> `b`')).toBe('\uE000a <!channel> b\uE001');
    const shown = escapeMrkdwn(codeSpan('a\uE001 <!channel> `b`'));
    expect(shown).toBe('`a &lt;!channel&gt; b`');
    // stray or unbalanced markers from elsewhere are dropped, and a span never crosses lines
    expect(escapeMrkdwn('x\uE000y\nz\uE001 *bold*')).not.toMatch(/`/);
  });

  it('JSON and text reports carry backticks, not the markers', async () => {
    for (const output of ['json', 'text']) {
      const { io, stdout } = fakeIo();
      await runCli(
        [
          'diagnose',
          'deployment/vision-object-tracker',
          '-n',
          'vision',
          '--from-file',
          'test/fixtures/dumps/incident-a-gpu-surge.yaml',
          '-o',
          output,
        ],
        io,
      );
      expect(stdout()).toContain('`kubectl rollout status`');
      expect(stdout()).not.toMatch(/[\uE000\uE001]/);
    }
  });
});
