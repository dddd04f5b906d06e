/**
 * A Teams client refreshes a card as soon as it sees a new version of it (its person
 * listed in `refresh.userIds`), and the bot answers that refresh from its card record.
 * So by the time the Bot Connector carries an update, the record holds the update's
 * message: a refresh that overtakes the update's answer never gets the card before it.
 * (Seen in the README pictures' Teams flow on a loaded machine: the approver's own view
 * stayed at "server-side dry run of …" while the shared card had the result.)
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, MessageRef } from '../../src/chat/model.js';
import { say } from '../../src/message/rich.js';
import { memoryCardStore, teamsAdapter, type CardRecord } from '../../src/chat/teams/adapter.js';
import type { BotConnector } from '../../src/chat/teams/connector.js';

const ref: MessageRef = {
  conversation: { platform: 'teams', id: '19:ops@thread.tacv2', thread: '1700000000001' },
  id: '1700000000001',
};
const progress: ChatMessage = { summary: say`web: server-side dry run…`, parts: [] };
const result: ChatMessage = { summary: say`web is stuck: surge deadlock`, parts: [] };

describe('Teams adapter update', () => {
  it('holds the new message in the card record before Teams shows the new version', async () => {
    const store = memoryCardStore();
    await store.set(ref, { message: progress, refreshUserIds: ['29:lead'] });
    const refreshedWith: (CardRecord | undefined)[] = [];
    const connector: BotConnector = {
      send: async () => ({ id: 'x' }),
      createThread: async () => ({ conversationId: 'c', activityId: 'x' }),
      sendPersonal: async () => ({ conversationId: 'a:x' }),
      remove: async () => undefined,
      // Teams has the new version now; a listed client's refresh reaches the bot before this answers.
      update: async () => void refreshedWith.push(await store.get(ref)),
    };
    const adapter = teamsAdapter({
      connector,
      store,
      tenantId: 'tenant',
      serviceUrlOf: () => 'https://smba.example/',
      refreshUserIds: () => ['29:lead'],
    });
    await adapter.update(ref, result);
    expect(refreshedWith.map((r) => r?.message.summary)).toEqual([result.summary]);
    expect((await adapter.record(ref))?.message).toEqual(result);
  });
});
