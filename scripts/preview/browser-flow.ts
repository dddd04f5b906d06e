/**
 * What a person does on the preview page, driven through a real browser (Debian's
 * chromium under playwright-core): type a slash command, wait for the result message,
 * approve its recommended fix through the confirm dialog, wait for the outcome in the
 * thread. Used by `npm run preview -- --screenshots DIR` and by
 * test/integration/preview-browser.test.ts, which adds its own checks. Every wait is
 * on something the page shows, with a bound.
 */
import { spawnSync } from 'node:child_process';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

/** The chromium binary on PATH (Debian: /usr/bin/chromium), or undefined. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' });
    const path = found.stdout.trim();
    if (found.status === 0 && path !== '') return path;
  }
  return undefined;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  // --no-sandbox: CI containers run as root, where chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}

/** Top-level messages (not replies, not ephemerals) of a channel. */
export function channelMessages(page: Page, channel: string): Locator {
  return page.locator(`section[data-channel-id="${channel}"] > .items > .msg[data-kind="message"]`);
}

/** The first primary button of a message's own body (not its thread). */
export function primaryButton(message: Locator): Locator {
  return message.locator(':scope > .msg-body .btn.primary').first();
}

/** Replies in a message's thread. */
export function threadReplies(message: Locator): Locator {
  return message.locator(':scope > .thread > .msg.reply');
}

/** Opens the page and waits until both incidents are live in the cluster. */
export async function openPreview(page: Page, url: string, timeoutMs: number): Promise<void> {
  await page.goto(url);
  await page.locator('body[data-cluster="ready"]').waitFor({ timeout: timeoutMs });
}

/**
 * Types `command` in `channel` and waits for the run's message, the first new one
 * whose text mentions `mentions` (the Deployment's name), to carry a result with a
 * primary button. Returns that message, pinned by its ts.
 */
export async function runCommand(
  page: Page,
  options: { channel: string; command: string; mentions: string; timeoutMs: number },
): Promise<Locator> {
  const messages = channelMessages(page, options.channel).filter({ hasText: options.mentions });
  const before = await messages.count();
  await page.locator('#channel').selectOption(options.channel);
  await page.locator('#command').fill(options.command);
  await page.locator('#send').click();
  // The app answers a command with a message of its own (then updated in place with the result).
  const posted = messages.nth(before);
  await posted.waitFor({ timeout: options.timeoutMs });
  const ts = await posted.getAttribute('data-ts');
  if (!ts) throw new Error('the new message has no ts');
  const message = page.locator(`.msg[data-kind="message"][data-ts="${ts}"]`);
  await primaryButton(message).waitFor({ timeout: options.timeoutMs });
  return message;
}

/**
 * Clicks the message's primary (recommended) button, checks the confirm dialog opens
 * before anything is sent, accepts it, and waits for a thread reply saying it rolled
 * out and for the message itself to say so. Returns the button's label and the dialog's text.
 */
export async function approveRecommended(
  page: Page,
  message: Locator,
  timeoutMs: number,
): Promise<{ label: string; dialog: string; outcome: Locator }> {
  const button = primaryButton(message);
  const label = (await button.textContent()) ?? '';
  await button.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ state: 'visible', timeout: 5_000 });
  const text = (await dialog.textContent()) ?? '';
  await page.locator('#confirm-ok').click();
  await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
  const outcome = threadReplies(message)
    .filter({ hasText: /rolled out/i })
    .first();
  await outcome.waitFor({ timeout: timeoutMs });
  // The root message itself says it rolled out (src/chat/notify/root-update.ts).
  await message
    .locator(':scope > .msg-body')
    .filter({ hasText: /rolled out at/ })
    .waitFor({ timeout: timeoutMs });
  return { label, dialog: text, outcome };
}

/** A message and its thread as a PNG: the page's sticky header and composer out of the way meanwhile. */
export async function screenshotMessage(page: Page, message: Locator, path: string): Promise<void> {
  await page.mouse.move(0, 0); // no hover highlight
  await page.evaluate("document.body.classList.add('capture')");
  try {
    await message.screenshot({ path });
  } finally {
    await page.evaluate("document.body.classList.remove('capture')");
  }
}

/** The Teams view: its tab selected. */
export async function openTeamsView(page: Page): Promise<void> {
  await page.locator('#tab-teams').click();
  await page.locator('body[data-tab="teams"]').waitFor({ timeout: 5_000 });
}

/** Threads of a Teams channel, in the Teams view. */
export function teamsThreads(page: Page, channel: string): Locator {
  return page.locator(`#teams section[data-channel-id="${channel}"] .teams-thread`);
}

/** The enabled positive (primary) Action.Execute buttons of a post's card, as adaptivecards draws them. */
export function teamsPrimaryButtons(post: Locator): Locator {
  return post.locator('.teams-card button.ac-pushButton.style-positive:enabled');
}

/**
 * Posts `text` (`@rollout-doctor …`) in a Teams channel of the page, acting as an
 * approver, and waits for the bot's card in the new thread to mention `mentions` and
 * offer an enabled primary button in the approver's own view (the card's refresh lists
 * the approvers the app has seen, as Teams asks it on sight). Returns that post, pinned
 * by its activity id.
 */
export async function postInTeams(
  page: Page,
  options: { channel: string; text: string; mentions: string; timeoutMs: number },
): Promise<Locator> {
  const threads = teamsThreads(page, options.channel);
  const before = await threads.count();
  await page.locator('#teams-channel').selectOption(options.channel);
  await page.locator('#teams-text').fill(options.text);
  await page.locator('#teams-send').click();
  const thread = threads.nth(before);
  await thread.waitFor({ timeout: options.timeoutMs });
  const card = thread
    .locator('.teams-post[data-view="own"]')
    .filter({ has: page.locator('.teams-card') })
    .filter({ hasText: options.mentions })
    .filter({ has: page.locator('button.ac-pushButton.style-positive:enabled') })
    .first();
  try {
    await card.waitFor({ timeout: options.timeoutMs });
  } catch (error) {
    const shown = await thread.innerText().catch(() => '(no thread)');
    throw new Error(
      `no card with an enabled primary button for ${options.mentions}; the thread shows:\n${shown}`,
      {
        cause: error,
      },
    );
  }
  const id = await card.getAttribute('data-activity-id');
  if (!id) throw new Error('the card has no activity id');
  return page.locator(`#teams .teams-post[data-activity-id="${id}"]`);
}

/**
 * Presses the card's primary button (the recommended fix's Approve), then the confirm
 * step's primary button the bot answers with, and waits for the card to say the fix
 * rolled out. Returns the pressed button's label.
 */
export async function approveInTeams(
  page: Page,
  post: Locator,
  timeoutMs: number,
): Promise<{ label: string; question: string }> {
  const approve = teamsPrimaryButtons(post).first();
  const label = (await approve.textContent()) ?? '';
  await approve.click();
  // The confirm step is a card of the person's own: the question, with a primary button of its own.
  const yes = teamsPrimaryButtons(post).filter({ hasNotText: label }).first();
  await yes.waitFor({ timeout: 10_000 });
  const question = (await post.locator('.teams-card').innerText()).trim();
  await yes.click();
  try {
    // The final state, as the person's own view fetched after the bot's last update (the card
    // then stays as it is: no more updates, no more refreshes).
    await post
      .and(post.page().locator('[data-view="own"]'))
      .filter({ hasText: /rolled out at/ })
      .waitFor({ timeout: timeoutMs });
  } catch (error) {
    const shown = await post.innerText().catch(() => '(gone)');
    throw new Error(`the card did not say rolled out; it shows:\n${shown}`, { cause: error });
  }
  return { label, question };
}
