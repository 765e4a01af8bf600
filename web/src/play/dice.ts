// Verifiable dice (docs/api.md, "Verifiable dice"). The server publishes a commitment to a
// game's dice seed (SHA-256 of "steppe-dice-v1:<game id>:<seed>") when it creates the game and
// reveals the seed when the game is over. This browser remembers the commitment it first saw
// for each game, so that a server that changed the seed mid-game is caught here, and at the
// end checks that the revealed seed hashes to it. SHA-256 is computed here, not with
// crypto.subtle, which a page served over plain http from another host does not have.

export interface DiceInfo {
  commitment: string;
  seed_from: string; // "server" | "creator" | "unknown"
  seed?: string; // decimal, once the game is over
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// Lower-case hex SHA-256 of the UTF-8 bytes of `text` (FIPS 180-4).
export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  const blocks = Math.ceil((data.length + 9) / 64);
  const buf = new Uint8Array(blocks * 64);
  buf.set(data);
  buf[data.length] = 0x80;
  const bits = data.length * 8;
  const view = new DataView(buf.buffer);
  view.setUint32(buf.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(buf.length - 4, bits >>> 0);
  const hv = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(b * 64 + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, bb, c, d, e, f, g, k] = hv;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) >>> 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) >>> 0;
    }
    hv[0] += a;
    hv[1] += bb;
    hv[2] += c;
    hv[3] += d;
    hv[4] += e;
    hv[5] += f;
    hv[6] += g;
    hv[7] += k;
  }
  return Array.from(hv, (x) => x.toString(16).padStart(8, '0')).join('');
}

export interface DiceBadge {
  state: 'committed' | 'verified' | 'mismatch' | 'unproven';
  text: string;
  title: string;
}

interface Store {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

// The badge for a game now: records the commitment the first time this browser sees the game.
export function diceBadge(gameId: string, dice: DiceInfo | undefined, store: Store | undefined): DiceBadge | null {
  if (!dice?.commitment) return null;
  const key = `steppe-dice-${gameId}`;
  let first = dice.commitment;
  try {
    const had = store?.getItem(key);
    if (had) first = had;
    else store?.setItem(key, dice.commitment);
  } catch {
    // No storage (private mode): the commitment of this page's first view is all there is.
  }
  if (first !== dice.commitment)
    return { state: 'mismatch', text: 'Dice NOT verified', title: `The server's dice commitment changed since this browser first saw the game (${first.slice(0, 12)}… then, ${dice.commitment.slice(0, 12)}… now).` };
  if (dice.seed === undefined)
    return { state: 'committed', text: 'Dice committed', title: `The server committed to this game's dice before the first move (SHA-256 ${dice.commitment.slice(0, 16)}…); it reveals the seed at the end, and this page checks it then.` };
  const got = sha256Hex(`steppe-dice-v1:${gameId}:${dice.seed}`);
  if (got !== dice.commitment)
    return { state: 'mismatch', text: 'Dice NOT verified', title: `The seed revealed at the end (${dice.seed}) does not hash to the commitment published at the start.` };
  if (dice.seed_from !== 'server')
    return { state: 'unproven', text: 'Dice seed chosen', title: `The seed matches its commitment, but it was ${dice.seed_from === 'creator' ? "chosen by the game's creator" : "sent to the game's creator (a game from before commitments)"}: it proves nothing against the creator.` };
  return { state: 'verified', text: 'Dice verified', title: `The seed revealed at the end (${dice.seed}) hashes to the commitment published before the first move. To replay every roll yourself: download the save and run \`steppe verify\` on it.` };
}
