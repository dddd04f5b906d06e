/* global document, window, fetch, EventSource, CSS, CustomEvent */
/**
 * The Block Kit preview page (served by scripts/preview/server.ts). The server sends
 * each message as a tree of plain nodes (scripts/preview/render-tree.ts); this file
 * turns it into DOM with createElement and createTextNode only, never innerHTML, so
 * text from the cluster stays text whatever it contains. Tags come from a fixed list,
 * links need an http(s) or mailto address, data-* keys a plain name.
 */
'use strict';

const TAGS = new Set([
  'div',
  'span',
  'b',
  'i',
  's',
  'code',
  'pre',
  'a',
  'blockquote',
  'h3',
  'hr',
  'button',
  'ul',
  'ol',
  'li',
]);
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
const DATA_KEY = /^[a-z][A-Za-z0-9]*$/;

const $ = (id) => document.getElementById(id);
/** The JSON each rendered item was built from: unchanged items keep their DOM. */
const builtFrom = new WeakMap();
let usersFilled = false;

function build(node) {
  if (typeof node === 'string') return document.createTextNode(node);
  if (node === null || typeof node !== 'object' || !TAGS.has(node.t)) return document.createTextNode('');
  const e = document.createElement(node.t);
  if (typeof node.c === 'string') e.className = node.c;
  if (typeof node.title === 'string') e.title = node.title;
  if (node.t === 'a') {
    if (typeof node.href === 'string' && SAFE_HREF.test(node.href)) {
      e.href = node.href;
      e.target = '_blank';
      e.rel = 'noopener noreferrer';
    }
  }
  if (node.data && typeof node.data === 'object') {
    for (const [k, v] of Object.entries(node.data)) {
      if (DATA_KEY.test(k) && typeof v === 'string') e.dataset[k] = v;
    }
  }
  for (const child of Array.isArray(node.k) ? node.k : []) e.appendChild(build(child));
  if (node.t === 'button') {
    e.type = 'button';
    if (node.button && !node.button.disabled) wireButton(e, node.button);
    else {
      e.disabled = true;
      e.setAttribute('aria-disabled', 'true');
    }
  }
  return e;
}

function currentUser() {
  return $('user').value;
}

/** Shows the confirm dialog; resolves true when confirmed. */
function confirmDialog(spec) {
  return new Promise((resolve) => {
    const overlay = $('confirm');
    const ok = $('confirm-ok');
    const deny = $('confirm-deny');
    $('confirm-title').textContent = spec.title;
    $('confirm-text').replaceChildren(...(Array.isArray(spec.text) ? spec.text : []).map(build));
    ok.textContent = spec.confirm;
    deny.textContent = spec.deny;
    ok.className = `btn ${spec.style === 'danger' ? 'danger' : 'primary'}`;
    const done = (answer) => {
      overlay.hidden = true;
      ok.removeEventListener('click', yes);
      deny.removeEventListener('click', no);
      document.removeEventListener('keydown', key);
      resolve(answer);
    };
    const yes = () => done(true);
    const no = () => done(false);
    const key = (event) => {
      if (event.key === 'Escape') done(false);
    };
    ok.addEventListener('click', yes);
    deny.addEventListener('click', no);
    document.addEventListener('keydown', key);
    overlay.hidden = false;
    ok.focus();
  });
}

async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

function wireButton(e, spec) {
  e.addEventListener('click', async () => {
    if (spec.confirm && !(await confirmDialog(spec.confirm))) return;
    e.disabled = true;
    e.classList.add('busy');
    try {
      const answer = await post('/api/click', {
        channel: spec.channel,
        ts: spec.ts,
        actionId: spec.actionId,
        blockId: spec.blockId,
        user: currentUser(),
      });
      if (!answer.ok) note(`Click not delivered: ${answer.error || 'unknown error'}`);
    } catch (error) {
      note(`Click not delivered: ${String(error)}`);
    } finally {
      e.disabled = false;
      e.classList.remove('busy');
    }
  });
}

function note(text) {
  $('composer-note').textContent = text;
}

function fillSelect(select, options, keep) {
  const previous = select.value;
  select.replaceChildren(
    ...options.map(({ value, label }) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      return option;
    }),
  );
  if (keep && options.some((o) => o.value === previous)) select.value = previous;
}

function channelSection(container, channel) {
  let section = document.querySelector(`section[data-channel-id="${CSS.escape(channel.id)}"]`);
  if (!section) {
    section = document.createElement('section');
    section.className = 'channel';
    section.dataset.channelId = channel.id;
    const title = document.createElement('h2');
    title.textContent = channel.name;
    const items = document.createElement('div');
    items.className = 'items';
    section.append(title, items);
    container.appendChild(section);
  }
  return section.querySelector('.items');
}

/** Taller than this, a message shows its start and "Show more", as Slack does in a channel. */
const LONG_PX = 480;

function collapseLong(element) {
  const messages = [element, ...element.querySelectorAll('.msg')];
  for (const message of messages) {
    const body = message.querySelector(':scope > .msg-body');
    if (!body || body.scrollHeight <= LONG_PX) continue;
    message.classList.add('long');
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'show-more';
    toggle.textContent = 'Show more';
    toggle.addEventListener('click', () => {
      const open = message.classList.toggle('expanded');
      toggle.textContent = open ? 'Show less' : 'Show more';
    });
    body.after(toggle);
  }
}

function render(state) {
  document.body.dataset.cluster = state.ready ? 'ready' : 'starting';
  $('status').textContent = state.status.join(' · ');
  if (!usersFilled) {
    fillSelect(
      $('user'),
      state.users.map((u) => ({ value: u.id, label: `@${u.id} (${u.label})` })),
      false,
    );
    usersFilled = true;
  }
  const channelOptions = state.view.map((c) => ({ value: c.id, label: c.name }));
  if ($('channel').options.length !== channelOptions.length) fillSelect($('channel'), channelOptions, true);

  const container = $('channels');
  const fresh = [];
  for (const channel of state.view) {
    const list = channelSection(container, channel);
    const existing = new Map([...list.children].map((child) => [child.dataset.key, child]));
    let previous = null;
    for (const item of channel.items) {
      const json = JSON.stringify(item.node);
      let element = existing.get(item.key);
      existing.delete(item.key);
      if (!element || builtFrom.get(element) !== json) {
        // chat.update: the new rendering takes the old one's place.
        const built = build(item.node);
        built.dataset.key = item.key;
        builtFrom.set(built, json);
        if (element) element.replaceWith(built);
        element = built;
        fresh.push(built);
      }
      const wanted = previous ? previous.nextSibling : list.firstChild;
      if (wanted !== element) list.insertBefore(element, wanted);
      previous = element;
    }
    for (const gone of existing.values()) gone.remove();
  }
  // Measured once in the page, so after the loop.
  for (const element of fresh) collapseLong(element);
}

function connect() {
  const events = new EventSource('/api/events');
  events.onmessage = (event) => {
    const state = JSON.parse(event.data);
    render(state);
    // The Teams view (teams-client.js) draws its part of the same state.
    window.dispatchEvent(new CustomEvent('preview-state', { detail: state }));
  };
  events.onerror = () => {
    $('status').textContent = 'preview server unreachable, retrying…';
  };
}

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('command');
  const text = input.value.trim();
  if (text === '') return;
  $('send').disabled = true;
  note('');
  try {
    const answer = await post('/api/command', { channel: $('channel').value, user: currentUser(), text });
    if (answer.ok) input.value = '';
    else note(answer.error || 'the command was not delivered');
  } catch (error) {
    note(String(error));
  } finally {
    $('send').disabled = false;
  }
});

window.addEventListener('DOMContentLoaded', connect);
