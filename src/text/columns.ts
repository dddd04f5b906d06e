/** Wide characters (Hangul, CJK, full-width forms) take two terminal columns. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** How many terminal columns `text` takes (a Korean syllable two, as terminals draw it). */
export function columns(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}
