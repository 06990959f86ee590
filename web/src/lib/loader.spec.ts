import { describe, expect, it } from 'vitest';
import { createLoader } from './loader';
import { deferred } from './deferred';

describe('createLoader', () => {
  it('keeps the answer of the latest read when an older one answers last', async () => {
    const answers = [deferred<number>(), deferred<number>()];
    let n = 0;
    const l = createLoader(() => answers[n++]!.promise, 0);
    const first = l.load();
    const second = l.load();
    answers[1]!.resolve(2);
    await second;
    answers[0]!.resolve(1);
    await first;
    expect(l.data.value).toBe(2);
    expect(l.loading.value).toBe(false);
    expect(l.loaded.value).toBe(true);
  });

  it('keeps the error of a failed read and the data of the last good one', async () => {
    let fail = false;
    const l = createLoader(async () => {
      if (fail) throw new Error('down');
      return 'ok';
    }, '');
    await l.load();
    fail = true;
    await l.load();
    expect(l.data.value).toBe('ok');
    expect((l.error.value as Error).message).toBe('down');
    fail = false;
    await l.load();
    expect(l.error.value).toBe(null);
  });
});
