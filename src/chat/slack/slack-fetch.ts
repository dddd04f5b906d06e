import type { webApi } from '@slack/bolt';
import { request } from 'undici';

/** What the Web API client reads from a response (@slack/web-api's FetchResponse). */
type SlackResponse = Awaited<ReturnType<webApi.FetchFunction>>;

/** The WHATWG fetch of this Node, for what `slackFetch` does not do itself. */
const globalFetch = globalThis.fetch as unknown as webApi.FetchFunction;

function responseHeaders(raw: Record<string, string | string[] | undefined>): SlackResponse['headers'] {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
  }
  return {
    get: (name) => headers.get(name.toLowerCase()) ?? null,
    entries: () => headers.entries(),
  };
}

/**
 * The transport of every Slack Web API call (Bolt's client and the notify client):
 * @slack/web-api's documented `fetch` option, implemented with undici's `request`.
 *
 * The Web API client needs only what its `FetchResponse` type lists (status,
 * headers.get/entries, text/json/arrayBuffer). Node 20's WHATWG fetch builds web
 * streams and Request/Response objects for each call; on this machine it cost about
 * 340 µs of CPU per chat.postMessage, against about 35 µs for `request` (see
 * docs/benchmarks.md). Slack calls run in the process that acks slash commands, so
 * that CPU, and the garbage it leaves, came straight out of the ack latency.
 *
 * Same semantics as the global fetch for what the client sends (string bodies,
 * `redirect: 'error'` or 'manual': a 3xx is returned, never followed, and the client
 * treats any status but 200 and 429 as an HTTP error). Multipart bodies (file
 * uploads) and `redirect: 'follow'` go to the global fetch unchanged.
 */
export const slackFetch: webApi.FetchFunction = async (url, init = {}) => {
  if ((init.body !== undefined && typeof init.body !== 'string') || init.redirect === 'follow') {
    return globalFetch(url, init);
  }
  const href = typeof url === 'string' ? url : url.href;
  const response = await request(href, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers ?? {},
    body: init.body ?? null,
    signal: init.signal ?? null,
  });
  // Read the whole body now: it frees the connection for the next call, and Slack
  // answers are small JSON documents.
  const bytes = Buffer.from(await response.body.arrayBuffer());
  let text: string | undefined;
  const asText = (): string => (text ??= bytes.toString('utf8'));
  return {
    ok: response.statusCode >= 200 && response.statusCode < 300,
    status: response.statusCode,
    statusText: response.statusText,
    url: href,
    headers: responseHeaders(response.headers),
    text: () => Promise.resolve(asText()),
    json: () => Promise.resolve().then(() => JSON.parse(asText()) as unknown),
    arrayBuffer: () =>
      Promise.resolve(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      ),
  };
};
