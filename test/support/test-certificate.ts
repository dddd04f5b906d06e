/**
 * Self-signed X.509 certificates for tests (an app registration's certificate), built
 * with node:crypto and a few lines of DER: RSA, sha256WithRSAEncryption, a CN, and the
 * validity the test asks for. Node's X509Certificate reads them like openssl's.
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';

export interface TestCertificate {
  /** PEM certificate. */
  certificatePem: string;
  /** PEM private key (PKCS#8). */
  keyPem: string;
  privateKey: KeyObject;
  x509: X509Certificate;
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer): Buffer =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const arc of rest) {
    const chunk: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length === 0 ? 0 : 0x80));
      if (v < 128) break;
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function integer(bytes: Buffer): Buffer {
  return tlv(0x02, (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}

const name = (cn: string): Buffer => seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));
const SHA256_WITH_RSA = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;

/**
 * A self-signed certificate. `validFrom`/`validTo` default to an hour ago and a year on;
 * `bits` defaults to 2048.
 */
export function makeTestCertificate(
  options: { cn?: string; validFrom?: Date; validTo?: Date; bits?: number } = {},
): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
  const cn = options.cn ?? 'rollout-doctor test bot';
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(12)),
    SHA256_WITH_RSA,
    name(cn),
    seq(
      time(options.validFrom ?? new Date(Date.now() - 3600_000)),
      time(options.validTo ?? new Date(Date.now() + 365 * 24 * 3600_000)),
    ),
    name(cn),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return {
    certificatePem: pem('CERTIFICATE', der),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
    x509: new X509Certificate(der),
  };
}
