/**
 * When to retry a read and how long to wait: capped exponential backoff with full
 * jitter (AWS architecture blog, "Exponential Backoff And Jitter"), and the server's
 * Retry-After on 429 when it sends one.
 */

export interface RetryOptions {
  /** Total attempts including the first. */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseMs: 200, maxMs: 5_000 };

/** A Retry-After above this is not honoured: the caller would rather fail and say so. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** 429 (throttled), 5xx, and status 0 (connection refused/reset, timeout) are transient. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/** Full jitter: uniform in [0, min(maxMs, baseMs * 2^retry)). `retry` counts from 0. */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After is either delta-seconds or an HTTP date. Returns milliseconds, or
 * undefined when absent or unparseable.
 */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before the next attempt: the server's Retry-After when given (capped), otherwise backoff. */
export function retryDelay(
  retry: number,
  options: RetryOptions,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return backoffDelay(retry, options, random);
}
