/**
 * The preview page's wire format: a tree of plain nodes the browser turns into DOM
 * with createElement and createTextNode only (scripts/preview/client.js). Strings are
 * text, never markup: whatever a pod's termination message says, it ends up in a text
 * node. Tags, classes and attributes come from this file's own code, links only with
 * an http(s) or mailto address.
 */

/** The only elements the page builds (client.js checks the same list). */
export type Tag =
  | 'div'
  | 'span'
  | 'b'
  | 'i'
  | 's'
  | 'code'
  | 'pre'
  | 'a'
  | 'blockquote'
  | 'h3'
  | 'hr'
  | 'button'
  | 'ul'
  | 'ol'
  | 'li';

/** A confirm dialog, shown by the page before a click goes to the app. */
export interface ConfirmSpec {
  title: string;
  text: RNode[];
  confirm: string;
  deny: string;
  /** 'primary' or 'danger': the colour of the confirm button. */
  style?: string;
}

/** What the page posts back when a button is clicked. */
export interface ButtonSpec {
  channel: string;
  ts: string;
  actionId: string;
  blockId: string;
  disabled?: boolean;
  confirm?: ConfirmSpec;
}

export interface RElement {
  t: Tag;
  /** Space-separated class names. */
  c?: string;
  k?: RNode[];
  /** Links only: http:, https: or mailto:. */
  href?: string;
  title?: string;
  /** data-* attributes (camelCase keys, as element.dataset takes them). */
  data?: Record<string, string>;
  button?: ButtonSpec;
}

export type RNode = string | RElement;

export const el = (
  t: Tag,
  c: string | undefined,
  k: RNode[],
  extra: Omit<RElement, 't' | 'c' | 'k'> = {},
): RElement => ({
  t,
  ...(c ? { c } : {}),
  ...(k.length > 0 ? { k } : {}),
  ...extra,
});

/** Addresses a link may point to; anything else (javascript:, data:, …) is shown as text. */
export const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/** The plain text of a tree (tests and screen-reader labels). */
export function textOf(nodes: readonly RNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : textOf(n.k ?? []))).join('');
}
