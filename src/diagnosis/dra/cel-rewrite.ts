/**
 * Two places where @marcbachmann/cel-js and the Kubernetes DRA CEL environment part
 * ways, closed by rewriting the parsed expression (on the library's own AST, by
 * source positions, so nothing else of the text changes) before it is compiled:
 *
 * - `device.attributes[d]` and `device.capacity[d]` look a domain up in a map whose
 *   missing keys read as an empty map upstream (newStringInterfaceMapWithDefault in
 *   k8s.io/dynamic-resource-allocation/cel/compile.go): such a lookup becomes
 *   `__dra_domain(device.attributes, d)`, which does exactly that. `d in
 *   device.attributes`, `size()` and the macros still see the real keys, as upstream
 *   (the default applies to lookups only).
 * - `has(e.f)` where `e` is not a plain chain of field selections from a variable
 *   (`has(device.attributes["d"].f)`): the library refuses it, CEL defines it as
 *   presence of key `f` in the map `e`. It becomes `(e).?f.hasValue()`: optional field
 *   selection on a map is `optional.of(e.f)` when the key is present and
 *   `optional.none()` otherwise, so the result is the same bool, and an error in `e`
 *   (a missing attribute domain key cannot be one, see above) stays an error in both.
 *   Optional types are part of the Kubernetes base CEL environment since 1.28.
 *
 * - String methods the library defines differently from cel-go (`matches` runs a
 *   JavaScript RegExp, positions count UTF-16 units, `lowerAscii` lowers more than
 *   ASCII; see cel-strings.ts) are renamed to this analysis' own (`x.matches(p)` becomes
 *   `x.__rd_matches(p)`, and the global form `matches(x, p)` becomes `__rd_matches(x, p)`);
 *   only the name changes in the text.
 *
 * Forms whose upstream meaning the rewrite does not settle are refused (the selector
 * is then unknown): presence tests and optional selection applied directly to
 * `device.attributes` / `device.capacity` (upstream's default makes every domain look
 * present there).
 */

export const DOMAIN_FN = '__dra_domain';

interface Node {
  op: string;
  args: unknown;
  start: number;
  end: number;
}

/** Methods renamed to this analysis' own versions (registered in cel.ts). */
const OWN_METHODS: ReadonlySet<string> = new Set([
  'matches',
  'indexOf',
  'lastIndexOf',
  'substring',
  'split',
  'lowerAscii',
  'upperAscii',
  'trim',
]);
export const ownName = (name: string): string => `__rd_${name}`;

export class UnsupportedSelector extends Error {}

const isNode = (v: unknown): v is Node =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Node).op === 'string' &&
  typeof (v as Node).start === 'number';

function children(node: Node): Node[] {
  const found: Node[] = [];
  const visit = (v: unknown): void => {
    if (isNode(v)) found.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  visit(node.args);
  return found;
}

/** Every node of an expression, depth first. */
export function* nodes(root: unknown): Generator<{ op: string; args: unknown }> {
  if (!isNode(root)) return;
  yield root;
  for (const child of children(root)) yield* nodes(child);
}

function pair(node: Node): [Node, unknown] {
  const [left, right] = node.args as [Node, unknown];
  return [left, right];
}

/** `device.attributes` or `device.capacity` itself. */
function isDomainMap(node: unknown): boolean {
  if (!isNode(node) || node.op !== '.') return false;
  const [left, field] = pair(node);
  return left.op === 'id' && left.args === 'device' && (field === 'attributes' || field === 'capacity');
}

/** A chain of `.` / `.?` selections ending in a variable: what the library's has() accepts. */
function plainChain(node: Node): boolean {
  let n: Node = node;
  while (n.op === '.' || n.op === '.?') n = pair(n)[0];
  return n.op === 'id';
}

/** The expression with the rewrites above applied (the input when none applies). */
export function rewriteSelector(source: string, root: unknown): string {
  if (!isNode(root)) return source;

  // A node's own range may leave out parentheses around an operand: splice by spans
  // (the node and all it contains), and render the root over the whole source, so that
  // text the rewrite does not touch is copied as it was.
  const spans = new Map<Node, [number, number]>();
  const span = (node: Node): [number, number] => {
    let known = spans.get(node);
    if (!known) {
      known = [node.start, node.end];
      for (const child of children(node)) {
        const [s, e] = span(child);
        known = [Math.min(known[0], s), Math.max(known[1], e)];
      }
      spans.set(node, known);
    }
    return known;
  };
  // `rename` changes the function name found in the text before child `gap` (the tail
  // when there is no such child): the receiver call's `.name(` or the global `name(`.
  const splice = (
    node: Node,
    from: number,
    to: number,
    rename?: { gap: number; pattern: RegExp; to: string },
  ): string => {
    let out = '';
    let pos = from;
    const renamed = (gap: number, text: string): string => {
      if (rename?.gap !== gap) return text;
      if (!rename.pattern.test(text))
        throw new UnsupportedSelector('a function call this analysis cannot rename');
      return text.replace(rename.pattern, rename.to);
    };
    const sorted = children(node).sort((a, b) => span(a)[0] - span(b)[0]);
    for (const [i, child] of sorted.entries()) {
      const [s, e] = span(child);
      if (s < pos) throw new UnsupportedSelector('an expression whose parts overlap');
      out += renamed(i, source.slice(pos, s)) + render(child);
      pos = e;
    }
    return out + renamed(sorted.length, source.slice(pos, to));
  };
  const render = (node: Node): string => rewrite(node) ?? splice(node, ...span(node));
  const text = (node: Node): string => source.slice(...span(node));

  const rewrite = (node: Node): string | undefined => {
    if ((node.op === '.?' || node.op === '[?]') && isDomainMap(pair(node)[0])) {
      throw new UnsupportedSelector('optional selection of an attribute or capacity domain');
    }
    if (node.op === '[]' && isDomainMap(pair(node)[0])) {
      const [map, key] = pair(node);
      if (!isNode(key)) return undefined;
      return `${DOMAIN_FN}(${render(map)}, ${render(key)})`;
    }
    if (node.op === '.' && isDomainMap(pair(node)[0])) {
      const [map, field] = pair(node);
      return `${DOMAIN_FN}(${render(map)}, ${JSON.stringify(field)})`;
    }
    if (node.op === 'rcall') {
      const [name] = node.args as [string];
      if (!OWN_METHODS.has(name)) return undefined;
      const pattern = new RegExp(`\\.(\\s*)${name}(\\s*)\\(`);
      return splice(node, ...span(node), { gap: 1, pattern, to: `.$1${ownName(name)}$2(` });
    }
    if (node.op === 'call' && (node.args as [string, unknown[]])[0] === 'matches') {
      const pattern = /^(\s*)matches(\s*)\(/;
      return splice(node, ...span(node), { gap: 0, pattern, to: `$1${ownName('matches')}$2(` });
    }
    if (node.op === 'call') {
      const [name, args] = node.args as [string, unknown[]];
      const arg = args[0];
      if (name !== 'has' || args.length !== 1 || !isNode(arg) || arg.op !== '.') return undefined;
      const [operand, field] = pair(arg);
      if (isDomainMap(operand)) {
        throw new UnsupportedSelector('a presence test on an attribute or capacity domain');
      }
      const rendered = render(operand);
      if (rendered === text(operand) && plainChain(operand)) return undefined;
      return `(${rendered}).?${String(field)}.hasValue()`;
    }
    return undefined;
  };

  const whole = rewrite(root);
  if (whole === undefined) return splice(root, 0, source.length);
  const [start, end] = span(root);
  return source.slice(0, start) + whole + source.slice(end);
}
