/**
 * YAML read as kubectl reads it. kubectl (and helm, and Argo CD) decode manifests through
 * sigs.k8s.io/yaml, which resolves plain scalars with its go-yaml v2 fork: YAML 1.1, with
 * merge keys (`<<`), underscores in numbers (`1_000`), `0b`/`0x`/leading-zero octals and
 * Go's `0o` octals, in either case (strconv.ParseInt with base 0), the 1.1 booleans (`yes`, `on`, `y`…),
 * and no base-60 numbers (`190:20:30` stays a string). Timestamps decoded into untyped
 * values stay strings (go-yaml v2's backward-compatible choice), as the JSON sent to the
 * API server has them. Read as YAML 1.2 instead, `cpu: 1_000` or a request under `<<:` is
 * not what kubectl sends, and a gate passes what the cluster then refuses to schedule.
 *
 * The `yaml` package's 1.1 schema differs from go-yaml v2 in four ways, mended here:
 * base-60 numbers (go-yaml: strings), `0o` octals (go-yaml: numbers), upper-case
 * prefixes `0X`/`0B`/`0O` (go-yaml: numbers), timestamps (go-yaml into interface{}: strings). test/integration/check-yaml-kubectl.test.ts holds
 * the reading beside the real kubectl's on the same text.
 */
import type { ParseOptions, DocumentOptions, SchemaOptions, ScalarTag } from 'yaml';

type Tags = NonNullable<SchemaOptions['customTags']>;
type TagList = Exclude<Tags, (tags: never) => unknown>;

const INT = 'tag:yaml.org,2002:int';
const FLOAT = 'tag:yaml.org,2002:float';
const TIMESTAMP = 'tag:yaml.org,2002:timestamp';

/** Go's `0o17` (strconv.ParseInt base 0, after go-yaml drops the underscores). */
const goOctal: ScalarTag = {
  identify: (value) => typeof value === 'number',
  default: true,
  tag: INT,
  format: 'OCT',
  test: /^[-+]?0o[0-7_]+$/,
  resolve: (source) => {
    const sign = source.startsWith('-') ? -1 : 1;
    const digits = source.replace(/^[-+]?0o/, '').replace(/_/g, '');
    return sign * Number.parseInt(digits, 8);
  },
};

/**
 * Upper-case base prefixes (`0X1F90`, `0B101`, `0O17`): go-yaml v2 hands the plain scalar
 * to strconv.ParseInt with base 0, which reads either case; the 1.1 schema knows only the
 * lower-case ones, and would leave these strings (a hostPort of 8080 not seen).
 */
const goUpperPrefix: ScalarTag = {
  identify: (value) => typeof value === 'number',
  default: true,
  tag: INT,
  format: 'HEX',
  test: /^[-+]?0(?:X[0-9a-fA-F_]+|B[01_]+|O[0-7_]+)$/,
  resolve: (source) => {
    const sign = source.startsWith('-') ? -1 : 1;
    const body = source.replace(/^[-+]?0/, '').replace(/_/g, '');
    const radix = { X: 16, B: 2, O: 8 }[body[0] ?? 'X'] ?? 16;
    return sign * Number.parseInt(body.slice(1), radix);
  },
};

/** The 1.1 schema's tags as go-yaml v2 resolves them. */
function goYamlTags(tags: TagList): TagList {
  const kept = tags.filter((t) => {
    const tag = t as ScalarTag;
    if (tag.tag === TIMESTAMP) return false;
    // Base 60 (`format: 'TIME'`): go-yaml v2 leaves these strings.
    if ((tag.tag === INT || tag.tag === FLOAT) && tag.format === 'TIME') return false;
    return true;
  });
  return [...kept, goOctal, goUpperPrefix];
}

/** Parse options for manifests: YAML 1.1 with merge keys, as go-yaml v2 resolves it. */
export const KUBECTL_YAML: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  merge: true,
  // go-yaml v2 into an untyped value lets a repeated key's last value win (kubectl
  // sends that); the yaml package's uniqueness check would also cost a scan of the
  // mapping per key, quadratic in a mapping of many keys.
  uniqueKeys: false,
  customTags: (tags) => goYamlTags(tags as TagList) as typeof tags,
};
