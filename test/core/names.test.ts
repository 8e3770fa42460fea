import { expect } from '@open-wc/testing';
import { nameTools, suffixedName, MAX_TOOL_NAME, type NameInput } from '../../src/core/index.js';

// A small seeded PRNG so failures reproduce (the seed is in the test name).
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const ALPHABET = ['a', 'Z', '9', '_', '-', '.', '/', ' ', ':', 'é', 'ß', '日本', '🙂', '\u202e', '__', 'tool', 'srv'];
function name(r: () => number): string {
  const len = Math.floor(r() * (r() < 0.1 ? 120 : 14)) + (r() < 0.05 ? 0 : 1);
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}
function generate(seed: number): NameInput[] {
  const r = rng(seed);
  const servers = Array.from({ length: 1 + Math.floor(r() * 6) }, (_, i) => ({
    serverKey: `srv_${seed}_${i}`,
    serverName: r() < 0.3 ? 'Same Name' : name(r),
  }));
  const out: NameInput[] = [];
  const sharedTools = ['search', 'read.file', 'search'];
  for (const s of servers) {
    const tools = new Set<string>();
    const n = Math.floor(r() * 12);
    for (let i = 0; i < n; i++)
      tools.add(r() < 0.3 ? sharedTools[Math.floor(r() * sharedTools.length)] : name(r) || 'x');
    for (const t of tools) out.push({ ...s, toolName: t });
  }
  return out;
}

describe('model-facing tool names', () => {
  it('keeps simple names readable: <server>__<tool>', () => {
    const m = nameTools([{ serverKey: 'a', serverName: 'github', toolName: 'create_issue' }]);
    expect([...m.keys()]).to.deep.equal(['github__create_issue']);
  });

  it('maps awkward names to provider-safe ones, with a suffix only where two would collide', () => {
    const inputs = [
      { serverKey: 's1', serverName: 'My Files', toolName: 'read.file', rank: 1 },
      { serverKey: 's2', serverName: 'My Files', toolName: 'read.file', rank: 2 },
      { serverKey: 's3', serverName: 'Café', toolName: 'x'.repeat(100) },
      { serverKey: 's4', serverName: '日本', toolName: '検索' },
      { serverKey: 's5', serverName: 'Added in G4F UI', toolName: 'get-sum' },
    ];
    const m = nameTools(inputs);
    const names = [...m.keys()];
    for (const n of names) expect(n).to.match(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
    expect(new Set(names).size).to.equal(5);
    // a person reads these (G4F prints them): replaced characters are no reason for a suffix
    expect(names).to.include('Added_in_G4F_UI__get-sum');
    expect(names).to.include('server__tool');
    expect(names).to.include(`Cafe__${'x'.repeat(64 - 'Cafe__'.length)}`);
    // of two that collide, the server added first keeps the plain name
    expect(m.get('My_Files__read_file')!.serverKey).to.equal('s1');
    const second = names.find((n) => m.get(n)!.serverKey === 's2')!;
    expect(second).to.match(/^My_Files__read_file_[a-z0-9]{8}$/);
    expect(second).to.equal(suffixedName(inputs[1]!));
  });

  it('a lone echo is <Server>__echo; two servers with echo get distinct names, stable as servers come and go', () => {
    const a = { serverKey: 'a', serverName: 'Everything', toolName: 'echo', rank: 100 };
    const b = { serverKey: 'b', serverName: 'Everything', toolName: 'echo', rank: 200 };
    const c = { serverKey: 'c', serverName: 'G4F', toolName: 'echo', rank: 300 };
    expect([...nameTools([a]).keys()]).to.deep.equal(['Everything__echo']);
    expect([...nameTools([a, c]).keys()].sort()).to.deep.equal(['Everything__echo', 'G4F__echo']);
    const both = nameTools([b, a]);
    expect(both.get('Everything__echo')).to.equal(a);
    const bName = [...both].find(([, i]) => i === b)![0];
    expect(bName).to.equal(suffixedName(b));
    // a server added later never takes a name away, whatever order the tools come in
    expect(nameTools([a, b]).get('Everything__echo')).to.equal(a);
    // same-server look-alikes: the tool whose own name needed no change keeps it
    const m = nameTools([
      { serverKey: 's', serverName: 'S', toolName: 'read.file' },
      { serverKey: 's', serverName: 'S', toolName: 'read_file' },
    ]);
    expect(m.get('S__read_file')!.toolName).to.equal('read_file');
  });

  it('keeps names given before: a newcomer that collides takes the suffix, whatever its rank', () => {
    const young = { serverKey: 'y', serverName: 'Same', toolName: 'echo', rank: 200, given: 'Same__echo' };
    const old = { serverKey: 'o', serverName: 'Same', toolName: 'echo', rank: 100 };
    for (const m of [nameTools([young, old]), nameTools([old, young])]) {
      expect(m.get('Same__echo')).to.equal(young);
      expect(m.get(suffixedName(old))).to.equal(old);
    }
    // two tools claiming one given name (two tabs raced): the lower rank keeps it, the other is named anew
    const claim = { ...old, given: 'Same__echo' };
    const m = nameTools([young, claim]);
    expect(m.get('Same__echo')).to.equal(claim);
    expect(m.get(suffixedName(young))).to.equal(young);
    // a given name that is no valid name is ignored
    const bad = { serverKey: 'b', serverName: 'B', toolName: 't', given: '1 not valid' };
    expect([...nameTools([bad]).keys()]).to.deep.equal(['B__t']);
  });

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 99, 1234, 4242, 65535]) {
    it(`property: valid, unique, reversible and order-independent (seed ${seed})`, () => {
      const inputs = generate(seed);
      const a = nameTools(inputs);
      expect(a.size).to.equal(inputs.length);
      for (const [n, i] of a) {
        expect(n.length).to.be.at.most(MAX_TOOL_NAME);
        expect(n).to.match(/^[A-Za-z][A-Za-z0-9_-]*$/);
        expect(inputs).to.include(i);
      }
      // every input is reachable from exactly one name
      const back = new Map<NameInput, string>();
      for (const [n, i] of a) {
        expect(back.has(i)).to.equal(false);
        back.set(i, n);
      }
      // same set in another order: same names
      const shuffled = [...inputs].reverse();
      const b = nameTools(shuffled);
      for (const [n, i] of a) expect(b.get(n)).to.equal(i);
    });
  }
});
