/**
 * X.509 certificates for tests (an app registration's certificate, a webhook's serving
 * certificate and its CA), built with node:crypto and a few lines of DER: RSA,
 * sha256WithRSAEncryption, a CN, the validity the test asks for, and on request the
 * extensions TLS needs (basicConstraints CA:TRUE for a CA, subjectAltName for a server).
 * Self-signed unless an issuer signs it. Node's X509Certificate reads them like openssl's.
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';

export interface TestCertificate {
  cn: string;
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

/**
 * A DER INTEGER: unsigned big-endian bytes in their shortest form. OpenSSL refuses
 * padding ("no start line" from X509Certificate), so leading zero bytes are dropped and
 * one put back only where the high bit would make the number negative.
 */
export function derInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const shortest = bytes.length === 0 ? Buffer.from([0]) : bytes.subarray(start);
  return tlv(0x02, (shortest[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), shortest]) : shortest);
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

const extension = (id: string, critical: boolean, value: Buffer): Buffer =>
  seq(oid(id), ...(critical ? [Buffer.from([0x01, 0x01, 0xff])] : []), tlv(0x04, value));

function ipBytes(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

function extensions(options: CertificateOptions): Buffer[] {
  const list: Buffer[] = [];
  if (options.ca) list.push(extension('2.5.29.19', true, seq(Buffer.from([0x01, 0x01, 0xff]))));
  const names = [
    ...(options.dnsNames ?? []).map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
    ...(options.ipAddresses ?? []).map((ip) => tlv(0x87, ipBytes(ip))),
  ];
  if (names.length > 0) list.push(extension('2.5.29.17', false, seq(...names)));
  return list.length === 0 ? [] : [tlv(0xa3, seq(...list))];
}

export interface CertificateOptions {
  cn?: string;
  validFrom?: Date;
  validTo?: Date;
  bits?: number;
  /** A CA certificate (basicConstraints CA:TRUE). */
  ca?: boolean;
  /** subjectAltName entries: DNS names and IPv4 addresses. */
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  /** The serial number's bytes (unsigned); absent: 12 random bytes. */
  serial?: Buffer;
  /** Signs with this certificate's key and names it the issuer; absent: self-signed. */
  issuer?: TestCertificate;
}

/**
 * A certificate. `validFrom`/`validTo` default to an hour ago and a year on; `bits`
 * defaults to 2048.
 * @example
 *   const ca = makeTestCertificate({ cn: 'test CA', ca: true });
 *   const server = makeTestCertificate({ cn: 'hook', dnsNames: ['hook.ns.svc'], issuer: ca });
 */
export function makeTestCertificate(options: CertificateOptions = {}): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
  const cn = options.cn ?? 'rollout-doctor test bot';
  const tbs = seq(
    tlv(0xa0, derInteger(Buffer.from([2]))),
    derInteger(options.serial ?? randomBytes(12)),
    SHA256_WITH_RSA,
    name(options.issuer?.cn ?? cn),
    seq(
      time(options.validFrom ?? new Date(Date.now() - 3600_000)),
      time(options.validTo ?? new Date(Date.now() + 365 * 24 * 3600_000)),
    ),
    name(cn),
    publicKey.export({ type: 'spki', format: 'der' }),
    ...extensions(options),
  );
  const signature = sign('sha256', tbs, options.issuer?.privateKey ?? privateKey);
  const der = seq(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return {
    cn,
    certificatePem: pem('CERTIFICATE', der),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
    x509: new X509Certificate(der),
  };
}
