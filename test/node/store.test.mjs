// The hub's Store: deferred changes (call records) and who must hear of them when. With no
// subscriber that could read them (`lazy` ones only) they wait for the next read of `state`:
// a backend hub so copies its call maps once per history write, not once per call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { Store } = await import(path.join(root, 'dist/core/store.js'));
const tick = () => new Promise((r) => setTimeout(r, 0));

test('with only lazy subscribers, deferred changes wait for the next read of state', async () => {
  const store = new Store({ n: 0 });
  const heard = [];
  store.subscribe((s, prev) => heard.push([prev.n, s.n]), { lazy: true });
  let applied = 0;
  store.defer((s) => (applied++, { ...s, n: s.n + 1 }));
  store.defer((s) => (applied++, { ...s, n: s.n + 1 }));
  await tick();
  assert.equal(applied, 0, 'not applied at the end of the task');
  assert.equal(store.settled.n, 0);
  assert.equal(store.state.n, 2, 'a read of state applies them');
  assert.equal(applied, 2);
  assert.deepEqual(heard, [[0, 2]], 'the lazy subscriber still hears of them, once');
});

test('a prompt subscriber gets deferred changes at the end of the task', async () => {
  const store = new Store({ n: 0 });
  const heard = [];
  const off = store.subscribe((s) => heard.push(s.n));
  store.defer((s) => ({ ...s, n: 1 }));
  assert.deepEqual(heard, []);
  await tick();
  assert.deepEqual(heard, [1]);
  assert.equal(store.settled.n, 1);
  off();
  off(); // twice: counts once
  store.defer((s) => ({ ...s, n: 2 }));
  await tick();
  assert.equal(store.settled.n, 1, 'nobody listens any more: it waits');
  const later = [];
  store.subscribe((s) => later.push(s.n));
  assert.equal(store.settled.n, 2, 'subscribing applies what waited');
  assert.deepEqual(later, [], 'what was applied before the subscription is not announced to it');
  store.defer((s) => ({ ...s, n: 3 }));
  await tick();
  assert.deepEqual(later, [3]);
});
