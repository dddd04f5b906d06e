import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derInteger, makeTestCertificate } from '../support/test-certificate.js';

// The helper drew 12 random serial bytes; about one draw in 512 began with a zero byte
// before a byte under 0x80, a padded INTEGER OpenSSL refuses, and a CI run failed on it.
describe('test certificates', () => {
  it.each([
    ['a leading zero before a small byte', [0x00, 0x10, 0x20], '1020'],
    ['a leading zero before a high byte', [0x00, 0x90], '90'],
    ['several leading zeros', [0x00, 0x00, 0x00, 0x05], '05'],
    ['a high first byte', [0xff, 0x01], 'FF01'],
  ])('reads with %s in the serial', (_, bytes, serial) => {
    const certificate = makeTestCertificate({ bits: 1024, serial: Buffer.from(bytes) });
    expect(certificate.x509.serialNumber).toBe(serial);
    expect(new X509Certificate(certificate.certificatePem).serialNumber).toBe(serial);
  });

  it('encodes integers in their shortest form', () => {
    expect([...derInteger(Buffer.from([0, 0]))]).toEqual([0x02, 0x01, 0x00]);
    expect([...derInteger(Buffer.from([0x80]))]).toEqual([0x02, 0x02, 0x00, 0x80]);
  });
});
