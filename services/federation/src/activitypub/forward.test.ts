import { keepsOriginal } from './forward';

const carol = 'https://peer.test/users/carol';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const signature = { type: 'RsaSignature2017', creator: `${carol}#main-key`, signatureValue: 'x' };
const reply = {
  id: `${carol}/notes/1`,
  type: 'Note',
  inReplyTo: 'https://social.test/ap/objects/p',
  to: [PUBLIC],
};

describe('which inbound ActivityPub bodies are kept to be forwarded', () => {
  test("a public reply's Create or Update signed by its author (LD Signature or Integrity Proof)", () => {
    expect(keepsOriginal({ type: 'Create', actor: carol, object: reply, signature })).toBe(true);
    expect(keepsOriginal({ type: 'Update', actor: carol, object: reply, signature })).toBe(true);
    expect(
      keepsOriginal({ type: 'Create', actor: carol, object: reply, proof: { type: 'DataIntegrityProof' } }),
    ).toBe(true);
    // Public by the activity's own addressing too (`cc`, `as:Public`).
    const unlisted = { ...reply, to: [`${carol}/followers`], cc: ['as:Public'] };
    expect(keepsOriginal({ type: 'Create', actor: carol, object: unlisted, signature })).toBe(true);
  });

  test('the Delete of an object (not of an account) signed by its author', () => {
    expect(
      keepsOriginal({ type: 'Delete', actor: carol, object: { id: reply.id, type: 'Tombstone' }, signature }),
    ).toBe(true);
    expect(keepsOriginal({ type: 'Delete', actor: carol, object: carol, signature })).toBe(false);
  });

  test('nothing unsigned, not public, not a reply, or of another kind', () => {
    expect(keepsOriginal({ type: 'Create', actor: carol, object: reply })).toBe(false);
    const direct = { ...reply, to: ['https://social.test/ap/users/alice'] };
    expect(keepsOriginal({ type: 'Create', actor: carol, to: direct.to, object: direct, signature })).toBe(
      false,
    );
    const post = { ...reply, inReplyTo: undefined };
    expect(keepsOriginal({ type: 'Create', actor: carol, object: post, signature })).toBe(false);
    expect(keepsOriginal({ type: 'Like', actor: carol, object: reply.id, signature })).toBe(false);
    expect(keepsOriginal({ type: 'Create', actor: carol, object: reply.id, signature })).toBe(false);
  });
});
