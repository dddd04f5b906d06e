/**
 * Issue 65.5: the choice of how long a node exclusion lasts, from the message to the
 * press. The port's closed set (zod: anything else refused, never free text), the
 * plan's patch with the chosen duration's marker (only expires-at changes), the Slack
 * select beside the Apply and its value read back from the interaction's state, and
 * the Teams Input.ChoiceSet read at the confirm step, named in its question and carried
 * by its "yes".
 */
import { describe, expect, it } from 'vitest';
import { chatActionSchema, lastsOfChoice } from '../../src/chat/actions.js';
import type { ChatMessage } from '../../src/chat/model.js';
import { chatMessageSchema } from '../../src/chat/message-schema.js';
import { markPlanInBlocks } from '../../src/chat/slack/mark.js';
import { chosenBeside, decodeValue } from '../../src/chat/slack/actions.js';
import { renderMessage } from '../../src/chat/slack/render.js';
import { trusted } from '../../src/chat/slack/blocks/mrkdwn.js';
import { renderCard } from '../../src/chat/teams/cards.js';
import { teamsInbound } from '../../src/chat/teams/inbound.js';
import type { PressRequest } from '../../src/chat/adapter.js';
import { planButton } from '../../src/chat/use-cases/result.js';
import { annotationPointer, EXCLUSION_ANNOTATIONS } from '../../src/remediation/exclusion-record.js';
import { fillExclusionTimes, plannedTtl, withExclusionTtl } from '../../src/remediation/exclusion-times.js';
import type { Patch, RemediationPlan } from '../../src/remediation/plan.js';

const EXPIRES = annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt);
const SET_AT = annotationPointer(EXCLUSION_ANNOTATIONS.setAt);
const DIGEST = 'a'.repeat(64);

const opsPatch: Patch = {
  type: 'json',
  body: [
    { op: 'test', path: '/metadata/generation', value: 4 },
    { op: 'add', path: SET_AT, value: '$NOW' },
    { op: 'add', path: EXPIRES, value: '$NOW+24h' },
  ],
};
/** A workload with no annotations at all: the record is one `add` of the map. */
const mapPatch: Patch = {
  type: 'json',
  body: [
    {
      op: 'add',
      path: '/metadata/annotations',
      value: { [EXCLUSION_ANNOTATIONS.setAt]: '$NOW', [EXCLUSION_ANNOTATIONS.expiresAt]: '$NOW+24h' },
    },
  ],
};

const plan = {
  id: 'exclude-node-0123456789abcdef',
  kind: 'exclude-node',
  target: { kind: 'Deployment', namespace: 'shop', name: 'checkout' },
  summary: 'Keep checkout off node-b.',
  impact: 'node-b is excluded. The exclusion ends after 24h.',
  warnings: [],
  patch: opsPatch,
  preconditions: { uid: 'u', generation: 4, fields: [] },
  inverse: null,
} as unknown as RemediationPlan;

const open = { state: 'open', expiresAt: Date.now() + 60_000 } as const;
const applyButton = planButton({ plan, cluster: 'prod' }, open, { requester: 'U0ASKER' });
const message: ChatMessage = {
  summary: [{ kind: 'text', text: 'result' }],
  parts: [{ kind: 'actions', buttons: [applyButton] }],
};

describe('the closed set (zod)', () => {
  it('takes the choices and the plan’s own, refuses anything else', () => {
    expect(lastsOfChoice('3d')).toEqual({ lasts: '3d' });
    expect(lastsOfChoice('until-removed')).toEqual({ lasts: 'until-removed' });
    expect(lastsOfChoice('planned')).toEqual({});
    expect(lastsOfChoice(undefined)).toEqual({});
    for (const value of ['12h', '30d', '90d', 'never', '3d ', '3D', '', 3, {}, ['3d'], '$NOW+3d'])
      expect(lastsOfChoice(value)).toBeNull();
  });

  it('an approve action with a duration outside the choices does not parse', () => {
    const action = { kind: 'approve', planId: plan.id, shown: DIGEST, requester: '-' };
    expect(chatActionSchema.safeParse({ ...action, lasts: '7d' }).success).toBe(true);
    expect(chatActionSchema.safeParse({ ...action, lasts: '12h' }).success).toBe(false);
    expect(chatActionSchema.safeParse({ ...action, lasts: 'until removed' }).success).toBe(false);
    // An Undo carries no duration.
    expect(chatActionSchema.safeParse({ ...action, kind: 'undo', lasts: '7d' }).success).toBe(false);
  });
});

describe('the patch with the chosen duration', () => {
  it.each([
    ['one op per annotation', opsPatch],
    ['the annotation map', mapPatch],
  ])('%s: only expires-at changes; until-removed writes no expiry', (_name, patch) => {
    expect(plannedTtl(patch)).toBe('24h');
    const chosen = withExclusionTtl(patch, '3d');
    expect(chosen && plannedTtl(chosen)).toBe('3d');
    const now = new Date('2026-11-27T10:00:00Z');
    expect(JSON.stringify(chosen && fillExclusionTimes(chosen, now))).toContain('"2026-11-30T10:00:00Z"');
    const forever = withExclusionTtl(patch, 'until-removed');
    expect(forever && plannedTtl(forever)).toBe('until-removed');
    const filled = JSON.stringify(forever && fillExclusionTimes(forever, now));
    expect(filled).toContain('"never"');
    expect(filled).not.toMatch(/"2026-11-2[89]|2026-12/);
    // Everything else as approved.
    const strip = (p: Patch | undefined) => JSON.stringify(p).replace(/\$NOW\+\w+|never/g, 'X');
    expect(strip(chosen)).toBe(strip(patch));
  });

  it('a patch that writes no exclusion takes no duration', () => {
    const other: Patch = { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } };
    expect(plannedTtl(other)).toBeUndefined();
    expect(withExclusionTtl(other, '3d')).toBeUndefined();
  });
});

describe('Slack: a static select beside the Apply', () => {
  const blocks = renderMessage(message).blocks as Record<string, unknown>[];
  const elements = (blocks.find((b) => b.type === 'actions')?.elements ?? []) as Record<string, unknown>[];

  it('offers the plan’s own first (chosen), then the other choices', () => {
    const select = elements[0] as { type: string; action_id: string; options: { value: string }[] };
    expect(select.type).toBe('static_select');
    expect(select.action_id).toBe('exclusion_lasts.0');
    expect(select.options.map((o) => o.value)).toEqual(['planned', '4h', '3d', '7d', 'until-removed']);
    expect(JSON.stringify(select)).toContain('24h (default)');
    expect(elements[1]).toMatchObject({ type: 'button', action_id: 'approve_plan.0' });
  });

  it('the press reads the select of its own index from the state; a value none of the options has drops it', () => {
    const state = (value: unknown, id = 'exclusion_lasts.0') => ({
      values: { b7: { [id]: { type: 'static_select', selected_option: { value } } } },
    });
    expect(chosenBeside(state('7d'), 'approve_plan.0')).toEqual({ lasts: '7d' });
    expect(chosenBeside(state('planned'), 'approve_plan.0')).toEqual({});
    expect(chosenBeside(state('7d', 'exclusion_lasts.1'), 'approve_plan.0')).toEqual({});
    expect(chosenBeside({ values: {} }, 'approve_plan.0')).toEqual({});
    expect(chosenBeside(state('45d'), 'approve_plan.0')).toBeNull();
    const value = String((elements[1] as { value: string }).value);
    expect(decodeValue('approve', value, { lasts: '7d' })).toMatchObject({ kind: 'approve', lasts: '7d' });
    expect(decodeValue('approve', value, { lasts: '45d' })).toBeNull();
  });

  it('marked approved, the select goes with its Apply', () => {
    const marked = markPlanInBlocks(blocks, plan.id, 'Approved: exclude-node (lasts 7d)', trusted('ok'));
    expect(JSON.stringify(marked)).not.toContain('exclusion_lasts');
    expect(JSON.stringify(marked)).toContain('Approved: exclude-node (lasts 7d)');
  });
});

describe('Teams: an Input.ChoiceSet, read at the confirm step', () => {
  const card = renderCard(message);
  const body = card.body as Record<string, unknown>[];

  it('a card record read back keeps the choice, and refuses an option outside the closed set', () => {
    expect(chatMessageSchema.safeParse(message).success).toBe(true);
    const forged = JSON.parse(JSON.stringify(message)) as { parts: { buttons: { choice: unknown }[] }[] };
    const choice = forged.parts[0]?.buttons[0]?.choice as { options: { value: string }[] };
    choice.options[1] = { ...choice.options[1], value: '45d' } as { value: string };
    expect(chatMessageSchema.safeParse(forged).success).toBe(false);
  });

  it('renders the choice above the ActionSet', () => {
    const set = body.find((b) => b.type === 'Input.ChoiceSet') as
      { id: string; value: string; choices: { value: string }[] } | undefined;
    expect(set?.id).toBe(`lasts-${plan.id}`);
    expect(set?.value).toBe('planned');
    expect(set?.choices.map((c) => c.value)).toEqual(['planned', '4h', '3d', '7d', 'until-removed']);
    expect(body.findIndex((b) => b.type === 'Input.ChoiceSet')).toBeLessThan(
      body.findIndex((b) => b.type === 'ActionSet'),
    );
  });

  function inbound(name?: string) {
    const presses: PressRequest[] = [];
    const handlers = teamsInbound({
      useCases: {
        press: async (request: PressRequest) => {
          presses.push(request);
          return {};
        },
      } as never,
      adapter: {
        record: async () => ({ message, refreshUserIds: [] }),
        update: async () => undefined,
        shown: () => undefined,
      } as never,
      mayApprove: async () => true,
      seen: () => undefined,
      logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
    });
    const invoke = (verb: string, data: Record<string, unknown>, id: string) =>
      handlers.cardAction(
        {
          type: 'invoke',
          name: 'adaptiveCard/action',
          id,
          from: {
            id: '29:1',
            aadObjectId: '6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90',
            ...(name ? { name } : {}),
          },
          conversation: { id: '19:ops@thread.tacv2' },
          serviceUrl: 'https://smba.trafficmanager.net/amer/',
          replyToId: '1732600000001',
          value: { action: { type: 'Action.Execute', verb, data } },
        } as never,
        {} as never,
      );
    return { invoke, presses };
  }
  const action = applyButton.action;

  it('the question names the duration chosen, and its "yes" carries it to the press', async () => {
    const { invoke, presses } = inbound();
    const asked = await invoke('confirm', { action, [`lasts-${plan.id}`]: '3d' }, 'a1');
    const text = JSON.stringify(asked.value);
    expect(text).toContain('Exclusion lasts: 3d.');
    // The card under the question offers no choice to change again.
    expect(text).not.toContain('Input.ChoiceSet');
    const yes = (
      asked.value as { body: { type: string; actions?: { data: { action: unknown } }[] }[] }
    ).body.find((b) => b.type === 'ActionSet')?.actions?.[0]?.data.action;
    expect(yes).toMatchObject({ kind: 'approve', lasts: '3d' });
    await invoke('press', { action: yes, [`lasts-${plan.id}`]: '4h' }, 'a2');
    expect(presses.map((p) => p.action)).toEqual([{ ...action, lasts: '3d' }]);
  });

  it('a value none of the options has is refused at the confirm step and reaches no press', async () => {
    const { invoke, presses } = inbound();
    const asked = await invoke('confirm', { action, [`lasts-${plan.id}`]: '45d' }, 'b1');
    expect(asked.statusCode).toBe(400);
    const forged = await invoke('press', { action: { ...action, lasts: '45d' } }, 'b2');
    expect(forged.statusCode).toBe(400);
    expect(presses).toEqual([]);
  });

  it('the plan’s own kept: the press carries no duration', async () => {
    const { invoke, presses } = inbound();
    const asked = await invoke('confirm', { action, [`lasts-${plan.id}`]: 'planned' }, 'c1');
    expect(JSON.stringify(asked.value)).toContain('Exclusion lasts: 24h (default).');
    await invoke('press', { action }, 'c2');
    expect(presses.map((p) => p.action)).toEqual([action]);
  });

  it('a press carries the presser’s name as the activity gave it, for a pull request’s “approved by”', async () => {
    const { invoke, presses } = inbound('Dana Lee');
    await invoke('confirm', { action, [`lasts-${plan.id}`]: 'planned' }, 'd1');
    await invoke('press', { action }, 'd2');
    const lookups = presses[0]?.lookups;
    expect(await lookups?.nameOf('6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90')).toBe('Dana Lee');
    expect(await lookups?.nameOf('someone-else')).toBeUndefined();
    expect(await lookups?.threadLink()).toBeUndefined();
  });
});
