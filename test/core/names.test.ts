import { expect } from '@open-wc/testing';
import { nameTools, MAX_TOOL_NAME, type NameInput } from '../../src/core/index.js';

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

  it('maps awkward names to provider-safe ones with a stable suffix', () => {
    const inputs = [
      { serverKey: 's1', serverName: 'My Files', toolName: 'read.file' },
      { serverKey: 's2', serverName: 'My Files', toolName: 'read.file' },
      { serverKey: 's3', serverName: 'Café', toolName: 'x'.repeat(100) },
      { serverKey: 's4', serverName: '日本', toolName: '検索' },
    ];
    const names = [...nameTools(inputs).keys()];
    for (const n of names) expect(n).to.match(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
    expect(new Set(names).size).to.equal(4);
    expect(names.some((n) => n.startsWith('My_Files__read_file_'))).to.equal(true);
    expect(names.some((n) => n.startsWith('Cafe__xxx'))).to.equal(true);
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
