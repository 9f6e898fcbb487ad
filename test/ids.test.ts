import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../src/common/ids.js';

describe('ids', () => {
  it('are the prefix and 16 base58 characters, the form the tfe provider recognises as an id rather than a name', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const id = newId('team');
      assert.match(id, /^team-[1-9A-HJ-NP-Za-km-z]{16}$/);
      seen.add(id.slice(5));
    }
    assert.equal(seen.size, 2_000);
    const characters = new Set([...seen].join(''));
    assert.equal(characters.size, 58, 'every base58 character appears');
  });
});
