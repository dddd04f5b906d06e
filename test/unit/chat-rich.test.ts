import { describe, expect, it } from 'vitest';
import { chatActionSchema } from '../../src/chat/actions.js';
import { br, code, icon, join, mention, plainText, rich, say, strong, text } from '../../src/message/rich.js';

describe('chat port inline content', () => {
  it('keeps interpolated text as one text span on one line, literals and our spans as they are', () => {
    const person = { platform: 'slack', id: 'U1' };
    const line = say`${icon('ok')} ${strong('set-recreate')} approved by ${mention(person)}: ${'<!channel> *x*\nnext'}`;
    expect(line).toEqual([
      { kind: 'icon', icon: 'ok' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', text: 'set-recreate' },
      { kind: 'text', text: ' approved by ' },
      { kind: 'mention', person },
      // A break inside it would start a line that reads as ours: only `br` spans break.
      { kind: 'text', text: ': <!channel> *x* next' },
    ]);
  });

  it('shows a span-shaped object from job JSON as text, never as a mention', () => {
    const forged = JSON.parse('{"kind":"mention","person":{"platform":"slack","id":"U0ADMIN"}}') as never;
    const forgedList = JSON.parse('[{"kind":"link","url":"https://evil.example","label":"ok"}]') as never;
    const line = say`by ${forged} and ${forgedList}`;
    expect(line.every((s) => s.kind === 'text')).toBe(true);
    expect(plainText(line)).toBe('by [object Object] and [object Object]');
  });

  it('cuts long untrusted text and turns literal line breaks into break spans', () => {
    const line = say`a\nb ${'x'.repeat(5000)}`;
    expect(line[1]).toEqual(br);
    expect(plainText(line).length).toBe('a\nb '.length + 2000);
    expect(plainText(join([rich(code('k')), rich(text('v'))], ' = '))).toBe('k = v');
  });

  it('joins adjacent text into one span, keeps an empty interpolation, and reuses nothing between calls', () => {
    const line = (value: string) => say`${icon('ok')}${value}${icon('ok')} and ${value}${text('!')}\nend`;
    expect(line('')).toEqual([
      { kind: 'icon', icon: 'ok' },
      { kind: 'text', text: '' },
      { kind: 'icon', icon: 'ok' },
      { kind: 'text', text: ' and !' },
      br,
      { kind: 'text', text: 'end' },
    ]);
    // The same call site again: its literal spans are shared, the content is not.
    expect(plainText(line('x'))).toBe('x and x!\nend');
    expect(plainText(line('y'))).toBe('y and y!\nend');
    expect(Object.isFrozen(line('z'))).toBe(true);
    expect(join([rich(text('a')), rich(text('b'), strong('c'))], ', ')).toEqual([
      { kind: 'text', text: 'a, b' },
      { kind: 'strong', text: 'c' },
    ]);
  });

  it('accepts only well-formed actions from a press', () => {
    const digest = 'a'.repeat(64);
    expect(
      chatActionSchema.safeParse({ kind: 'approve', planId: 'p1', shown: digest, requester: 'U1' }).success,
    ).toBe(true);
    expect(
      chatActionSchema.safeParse({ kind: 'approve', planId: 'p1', shown: 'x', requester: null }).success,
    ).toBe(false);
    expect(chatActionSchema.safeParse({ kind: 'dismiss', extra: 1 }).success).toBe(false);
    expect(
      chatActionSchema.safeParse({
        kind: 'rerun',
        cluster: 'prod',
        target: { namespace: 'ns', name: 'web', kind: 'Pod' },
      }).success,
    ).toBe(false);
    // A Re-run of a name no Kubernetes object has is no press: it spent the person's
    // budget and then failed the job's schema, with no answer.
    const rerun = (cluster: string, namespace: string, name: string) =>
      chatActionSchema.safeParse({ kind: 'rerun', cluster, target: { namespace, name, kind: 'Deployment' } })
        .success;
    expect(rerun('prod', 'shop', 'web.v2')).toBe(true);
    for (const [cluster, namespace, name] of [
      ['prod', 'shop', 'Web_Bad'],
      ['prod', 'shop', '<!channel>'],
      ['prod', 'Shop', 'web'],
      ['Prod', 'shop', 'web'],
      ['prod', 'shop', 'x'.repeat(254)],
    ] as const)
      expect(rerun(cluster, namespace, name), `${cluster}/${namespace}/${name}`).toBe(false);
  });
});
