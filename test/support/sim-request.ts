/**
 * One request to the simulator with what a client sees of the answer: status, the parsed
 * body and every `Warning` header as sent (several headers kept apart, UTF-8 decoded).
 */
import { request } from 'node:http';

export interface SimAnswer {
  status: number;
  body: Record<string, unknown>;
  warnings: string[];
}

export function simRequest(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<SimAnswer> {
  const url = new URL(path, base);
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { 'Content-Type': contentType, Accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const warnings: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i]?.toLowerCase() === 'warning')
              warnings.push(Buffer.from(res.rawHeaders[i + 1] ?? '', 'latin1').toString('utf8'));
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            body: raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>),
            warnings,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
