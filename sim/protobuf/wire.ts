/**
 * The protobuf wire format, read without a schema: a message is a list of
 * (field number, wire type, value). Only what Kubernetes' generated.proto files use:
 * varints (0), 64-bit (1), length-delimited (2) and 32-bit (5); no groups.
 */
export interface WireField {
  readonly field: number;
  readonly wireType: 0 | 1 | 2 | 5;
  /** A varint's value (bigint: int64 fields), or the bytes of the others. */
  readonly value: bigint | Buffer;
}

export class WireError extends Error {}

function varint(buf: Buffer, at: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && i < at + 10; i += 1) {
    const byte = buf[i] ?? 0;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    shift += 7n;
  }
  throw new WireError('truncated varint');
}

/** The fields of one message, in the order they come. */
export function readFields(buf: Buffer): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  while (at < buf.length) {
    const key = varint(buf, at);
    at = key.next;
    const field = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    if (field === 0) throw new WireError('field number 0');
    if (wireType === 0) {
      const v = varint(buf, at);
      fields.push({ field, wireType, value: v.value });
      at = v.next;
    } else if (wireType === 2) {
      const len = varint(buf, at);
      const end = len.next + Number(len.value);
      if (end > buf.length) throw new WireError(`field ${field}: length past the end`);
      fields.push({ field, wireType, value: buf.subarray(len.next, end) });
      at = end;
    } else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      if (at + size > buf.length) throw new WireError(`field ${field}: truncated`);
      fields.push({ field, wireType, value: buf.subarray(at, at + size) });
      at += size;
    } else {
      throw new WireError(`field ${field}: wire type ${wireType} is not used by Kubernetes`);
    }
  }
  return fields;
}
