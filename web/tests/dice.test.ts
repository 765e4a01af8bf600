import { describe, expect, it } from 'vitest';
import { diceBadge, sha256Hex } from '../src/play/dice';

class MemoryStore {
  m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
}

describe('sha256Hex', () => {
  it('matches the NIST vectors and the kernel', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    expect(sha256Hex('a'.repeat(64))).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
    // The commitment of a real game served by `steppe serve` (docs/api.md).
    expect(sha256Hex('steppe-dice-v1:f42940439670:5384324767827019296')).toBe('770ebda2aea80f4331f1410ea2449f84eabd7674d8266b38bba59e058631896f');
  });
});

describe('diceBadge', () => {
  const id = 'f42940439670';
  const commitment = '770ebda2aea80f4331f1410ea2449f84eabd7674d8266b38bba59e058631896f';
  it('is committed during the game and verified when the revealed seed hashes to the first commitment', () => {
    const store = new MemoryStore();
    expect(diceBadge(id, { commitment, seed_from: 'server' }, store)?.state).toBe('committed');
    expect(diceBadge(id, { commitment, seed_from: 'server', seed: '5384324767827019296' }, store)?.state).toBe('verified');
  });
  it('catches another seed, a changed commitment and a seed the creator chose', () => {
    const store = new MemoryStore();
    expect(diceBadge(id, { commitment, seed_from: 'server', seed: '5384324767827019297' }, store)?.state).toBe('mismatch');
    const other = sha256Hex(`steppe-dice-v1:${id}:1`);
    expect(diceBadge(id, { commitment: other, seed_from: 'server', seed: '1' }, store)?.state).toBe('mismatch');
    expect(diceBadge('g2', { commitment: sha256Hex('steppe-dice-v1:g2:7'), seed_from: 'creator', seed: '7' }, new MemoryStore())?.state).toBe('unproven');
    expect(diceBadge('g3', undefined, store)).toBeNull();
  });
});
