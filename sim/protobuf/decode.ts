/**
 * Decodes a Kubernetes protobuf request body (`application/vnd.kubernetes.protobuf`) into
 * the JSON object the rest of the simulator handles. The body is the magic `k8s\0`, then a
 * runtime.Unknown: typeMeta (1: apiVersion 1, kind 2), raw (2: the object's message),
 * contentEncoding (3), contentType (4) (k8s.io/apimachinery runtime/serializer/protobuf).
 * A kind or a set field the schema (schema.ts) does not know is refused, never dropped.
 */
import { KINDS, MESSAGES, type FieldSpec, type FieldType, type Scalar } from './schema.js';
import { readFields, WireError, type WireField } from './wire.js';

export class ProtobufError extends Error {}

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const utf8 = (v: WireField['value']): string => (Buffer.isBuffer(v) ? v.toString('utf8') : '');
const bytes = (v: WireField['value']): Buffer => (Buffer.isBuffer(v) ? v : Buffer.alloc(0));
const int = (v: WireField['value']): number => (typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : 0);

function isEmpty(f: WireField): boolean {
  return typeof f.value === 'bigint' ? f.value === 0n : f.value.length === 0;
}

function time(buf: Buffer): string | undefined {
  const seconds = readFields(buf).find((f) => f.field === 1);
  if (!seconds || typeof seconds.value !== 'bigint' || seconds.value === 0n) return undefined;
  return new Date(Number(seconds.value) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function scalar(type: Scalar, f: WireField): unknown {
  switch (type) {
    case 'string':
      return utf8(f.value);
    case 'bytes':
      return bytes(f.value).toString('base64');
    case 'int':
      return int(f.value);
    case 'bool':
      return typeof f.value === 'bigint' && f.value !== 0n;
    case 'time':
      return time(bytes(f.value));
    case 'quantity':
      return utf8(readFields(bytes(f.value)).find((q) => q.field === 1)?.value ?? Buffer.alloc(0));
    case 'intOrString': {
      const parts = readFields(bytes(f.value));
      const kind = parts.find((p) => p.field === 1);
      if (kind && kind.value === 1n) return utf8(parts.find((p) => p.field === 3)?.value ?? Buffer.alloc(0));
      return int(parts.find((p) => p.field === 2)?.value ?? 0n);
    }
  }
}

function value(type: Exclude<FieldType, 'ignore'>, f: WireField, at: string): unknown {
  if (typeof type === 'string') return scalar(type, f);
  if ('msg' in type) return message(type.msg, bytes(f.value), at);
  return undefined;
}

function isZero(v: unknown): boolean {
  if (v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

function message(name: string, buf: Buffer, at: string): Record<string, unknown> {
  const schema = MESSAGES[name];
  if (!schema) throw new ProtobufError(`no schema for ${name}`);
  const out: Record<string, unknown> = {};
  for (const f of readFields(buf)) {
    const spec: FieldSpec | undefined = schema[f.field];
    if (!spec) {
      if (isEmpty(f)) continue;
      throw new ProtobufError(
        `${at}: field ${f.field} of ${name} is not one the simulator decodes; send JSON`,
      );
    }
    if (spec.type === 'ignore') continue;
    const path = `${at}.${spec.name}`;
    if (typeof spec.type === 'object' && 'map' in spec.type) {
      const entries = (out[spec.name] ?? {}) as Record<string, unknown>;
      const entry = readFields(bytes(f.value));
      const key = utf8(entry.find((e) => e.field === 1)?.value ?? Buffer.alloc(0));
      const raw = entry.find((e) => e.field === 2);
      const mapType = spec.type.map;
      entries[key] = raw
        ? value(mapType, raw, `${path}[${key}]`)
        : value(mapType, { field: 2, wireType: 2, value: Buffer.alloc(0) }, path);
      out[spec.name] = entries;
      continue;
    }
    const v = value(spec.type, f, path);
    if (spec.repeated) {
      out[spec.name] = [...((out[spec.name] as unknown[] | undefined) ?? []), v];
    } else if (spec.ptr || !isZero(v)) {
      out[spec.name] = v;
    }
  }
  return out;
}

/** The object in a protobuf body, as JSON would have carried it. */
export function decodeProtobufBody(body: Buffer): Record<string, unknown> {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new ProtobufError('not a Kubernetes protobuf body (no k8s\\0 prefix)');
  }
  try {
    const unknown = readFields(body.subarray(MAGIC.length));
    const typeMeta = readFields(bytes(unknown.find((f) => f.field === 1)?.value ?? Buffer.alloc(0)));
    const apiVersion = utf8(typeMeta.find((f) => f.field === 1)?.value ?? Buffer.alloc(0));
    const kind = utf8(typeMeta.find((f) => f.field === 2)?.value ?? Buffer.alloc(0));
    const encoding = utf8(unknown.find((f) => f.field === 3)?.value ?? Buffer.alloc(0));
    if (encoding !== '') throw new ProtobufError(`content encoding ${encoding} is not supported`);
    const messageName = KINDS[`${apiVersion}/${kind}`];
    if (!messageName) {
      throw new ProtobufError(
        `the simulator decodes protobuf only for ${Object.keys(KINDS).join(', ')}, not ${apiVersion}/${kind}; send JSON`,
      );
    }
    const raw = bytes(unknown.find((f) => f.field === 2)?.value ?? Buffer.alloc(0));
    return { apiVersion, kind, ...message(messageName, raw, kind) };
  } catch (err) {
    if (err instanceof WireError) throw new ProtobufError(`malformed protobuf: ${err.message}`);
    throw err;
  }
}
