/**
 * Korean particles after a number, chosen by how the number is read (a name from the
 * cluster cannot be read reliably, so messages never put a particle straight after a
 * name: docs/glossary-ko.md). Pure.
 */

/** 으로 or 로 after `n` read in Sino-Korean: 0 영, 3 삼, 6 육 and every multiple of ten end in a consonant other than ㄹ. */
export function roAfter(n: number): '으로' | '로' {
  const last = Math.abs(Math.trunc(n)) % 10;
  return last === 0 || last === 3 || last === 6 ? '으로' : '로';
}
