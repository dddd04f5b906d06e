/**
 * Request bodies: JSON; YAML (server-side apply sends `application/apply-patch+yaml`);
 * and Kubernetes protobuf for the kinds kubectl's typed `create` generators send that way
 * (kubectl 1.35 sends built-in kinds as protobuf and does not fall back to JSON: client-go
 * retries with JSON only after a 415 to a CBOR body). Any other media type gets 415.
 */
import { parse as parseYaml } from 'yaml';
import { ApiError } from '../errors.js';
import { decodeProtobufBody, ProtobufError } from '../protobuf/decode.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const JSON_TYPES = new Set([
  'application/json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
]);
const YAML_TYPES = new Set(['application/yaml', 'application/apply-patch+yaml']);
const ACCEPTED = ['application/json', 'application/yaml', PROTOBUF];

function unknownFormat(code: 400 | 415, detail = ''): ApiError {
  return new ApiError(
    code,
    code === 415 ? 'UnsupportedMediaType' : 'BadRequest',
    `the body of the request was in an unknown format - accepted media types include: ${ACCEPTED.join(', ')}${detail}`,
  );
}

/** The parsed body, undefined when empty; 415 for a media type the simulator does not read. */
export function parseBody(body: Buffer, contentType: string): unknown {
  if (body.length === 0) return undefined;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (type === PROTOBUF) {
    try {
      return decodeProtobufBody(body);
    } catch (err) {
      if (err instanceof ProtobufError) throw unknownFormat(415, ` (${err.message})`);
      throw err;
    }
  }
  if (type !== '' && !JSON_TYPES.has(type) && !YAML_TYPES.has(type)) throw unknownFormat(415);
  const text = body.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return YAML_TYPES.has(type) ? (parseYaml(text, { maxAliasCount: 100 }) as unknown) : JSON.parse(text);
  } catch {
    throw unknownFormat(400);
  }
}
