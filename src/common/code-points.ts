/**
 * Compares strings by Unicode code point, the order names and keys are listed in everywhere.
 * JavaScript's `<` compares UTF-16 code units, which puts characters above U+FFFF (stored as
 * surrogates D800–DFFF) before U+E000–U+FFFF; moving the surrogates above every other code
 * unit restores code point order. Both strings agree up to the first differing unit, so that
 * unit alone decides.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
