/* global document, window, fetch, AdaptiveCards */
/**
 * The Teams view of the preview page: the cards the app posted to the Teams stand-in,
 * drawn by Microsoft's Adaptive Cards renderer (the `adaptivecards` package, served by
 * the preview server from node_modules). The server keeps each person's own view of a
 * card (an invoke's answer) as Teams does; this file asks for it when a card's refresh
 * lists the person, and sends an Action.Execute press to /api/teams/execute, which
 * signs an `adaptiveCard/action` invoke as the Teams client causes one.
 *
 * Untrusted text stays text: the app's cards put every text in TextRuns (no Markdown
 * there), and the renderer's Markdown hook is set to process nothing, so even a
 * TextBlock is drawn with innerText. Our own text (names, notes) goes in with
 * textContent; nothing here uses innerHTML.
 */
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  if (typeof AdaptiveCards === 'undefined') return;
  // No Markdown, ever: the renderer falls back to plain text (innerText).
  AdaptiveCards.AdaptiveCard.onProcessMarkdown = (_text, result) => {
    result.didProcess = false;
  };
  AdaptiveCards.GlobalSettings.allowMarkForTextHighlighting = false;
  const host = new AdaptiveCards.HostConfig({
    fontFamily: "'Segoe UI', system-ui, sans-serif",
    supportsInteractivity: true,
  });
  const SAFE_URL = /^https?:\/\//i;

  let state = null;
  /** What each drawn post was built from: unchanged posts keep their DOM. */
  const builtFrom = new WeakMap();
  /** Refreshes asked for, per post, update count and person: one each. */
  const refreshed = new Set();

  const teamsUser = () => {
    const slackId = $('user').value;
    const user = ((state && state.users) || []).find((u) => u.id === slackId);
    return (user && user.teams) || '';
  };

  function note(text) {
    $('teams-note').textContent = text;
  }

  async function post(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.json();
  }

  async function execute(p, verb, data, trigger) {
    const answer = await post('/api/teams/execute', {
      conversationId: p.conversationId,
      activityId: p.id,
      verb,
      data: data || {},
      user: teamsUser(),
      trigger,
    });
    if (!answer.ok && trigger === 'manual') note(`Action not delivered: ${answer.error || 'unknown error'}`);
  }

  function drawCard(p, card) {
    const ac = new AdaptiveCards.AdaptiveCard();
    ac.hostConfig = host;
    ac.onExecuteAction = (action) => {
      if (action instanceof AdaptiveCards.ExecuteAction) {
        note('');
        void execute(p, action.verb, action.data, 'manual');
      } else if (action instanceof AdaptiveCards.OpenUrlAction && SAFE_URL.test(action.url || '')) {
        window.open(action.url, '_blank', 'noopener,noreferrer');
      }
    };
    ac.parse(card);
    const rendered = ac.render();
    return rendered || document.createTextNode('(a card the renderer could not draw)');
  }

  function drawPost(p, user) {
    const view = p.views[user] || {};
    const box = document.createElement('div');
    box.className = 'teams-post';
    box.dataset.activityId = p.id;
    box.dataset.updates = String(p.updates);
    box.dataset.view = view.card ? 'own' : 'shared';
    const who = document.createElement('div');
    who.className = 'teams-who';
    who.textContent = p.from;
    box.append(who);
    const card = view.card || p.card;
    if (card) {
      const holder = document.createElement('div');
      holder.className = 'teams-card';
      holder.append(drawCard(p, card));
      box.append(holder);
    } else {
      const text = document.createElement('div');
      text.className = 'teams-text';
      text.textContent = p.text || '';
      box.append(text);
    }
    if (view.said) {
      const said = document.createElement('div');
      said.className = 'teams-said';
      said.textContent = view.said;
      box.append(said);
    }
    return box;
  }

  /** Teams asks for a person's own view of a card whose refresh lists them, once per version. */
  function refreshFor(p, user) {
    const card = p.card;
    if (!card || !card.refresh || !card.refresh.action || p.views[user]) return;
    if (!Array.isArray(card.refresh.userIds) || !card.refresh.userIds.includes(user)) return;
    const key = `${p.id}/${p.updates}/${user}`;
    if (refreshed.has(key)) return;
    refreshed.add(key);
    void execute(p, card.refresh.action.verb, card.refresh.action.data, 'automatic');
  }

  function channelBox(container, channel) {
    let section = [...container.children].find((c) => c.dataset.channelId === channel.id);
    if (!section) {
      section = document.createElement('section');
      section.className = 'teams-channel';
      section.dataset.channelId = channel.id;
      const title = document.createElement('h2');
      title.textContent = channel.name;
      const threads = document.createElement('div');
      threads.className = 'teams-threads';
      section.append(title, threads);
      container.append(section);
    }
    return section.querySelector('.teams-threads');
  }

  function render() {
    const teams = state && state.teams;
    if (!teams) return;
    $('tab-teams').hidden = false;
    const select = $('teams-channel');
    if (select.options.length !== teams.channels.length) {
      select.replaceChildren(
        ...teams.channels.map((c) => {
          const option = document.createElement('option');
          option.value = c.id;
          option.textContent = c.name;
          return option;
        }),
      );
    }
    const user = teamsUser();
    const container = $('teams');
    for (const channel of teams.channels) {
      const list = channelBox(container, channel);
      const existing = new Map([...list.children].map((c) => [c.dataset.root, c]));
      for (const thread of teams.threads.filter((t) => t.channel === channel.id)) {
        let box = existing.get(thread.root);
        if (!box) {
          box = document.createElement('article');
          box.className = 'teams-thread';
          box.dataset.root = thread.root;
          list.append(box);
        }
        const have = new Map([...box.children].map((c) => [c.dataset.activityId, c]));
        let previous = null;
        for (const p of thread.posts) {
          const json = JSON.stringify([p, user]);
          let element = have.get(p.id);
          if (!element || builtFrom.get(element) !== json) {
            const built = drawPost(p, user);
            builtFrom.set(built, json);
            if (element) element.replaceWith(built);
            element = built;
          }
          const wanted = previous ? previous.nextSibling : box.firstChild;
          if (wanted !== element) box.insertBefore(element, wanted);
          previous = element;
          refreshFor(p, user);
        }
      }
    }
  }

  function showTab(tab) {
    document.body.dataset.tab = tab;
    for (const button of document.querySelectorAll('#tabs [role="tab"]'))
      button.setAttribute('aria-selected', String(button.dataset.tab === tab));
  }

  window.addEventListener('preview-state', (event) => {
    state = event.detail;
    render();
  });
  window.addEventListener('DOMContentLoaded', () => {
    for (const button of document.querySelectorAll('#tabs [role="tab"]'))
      button.addEventListener('click', () => showTab(button.dataset.tab));
    $('user').addEventListener('change', render);
    $('teams-composer').addEventListener('submit', async (event) => {
      event.preventDefault();
      const input = $('teams-text');
      const text = input.value.trim();
      if (text === '') return;
      $('teams-send').disabled = true;
      note('');
      try {
        const answer = await post('/api/teams/message', {
          channel: $('teams-channel').value,
          user: teamsUser(),
          text,
        });
        if (answer.ok) input.value = '';
        else note(answer.error || 'the post was not delivered');
      } catch (error) {
        note(String(error));
      } finally {
        $('teams-send').disabled = false;
      }
    });
  });
})();
