import { describe, expect, it } from 'vitest';
import type { Suite } from '../domain/suite.js';
import type { RunConfig } from '../config/run-config.js';
import { resolveIds } from './target.js';
import { testRunConfig } from '../config/test-support/run-config.js';

const suite = (target: Suite['target']): Suite => ({ path: 'faq.csv', target } as unknown as Suite);
const options = (o: Parameters<typeof testRunConfig>[0] = {}): RunConfig => testRunConfig(o);
const DEFAULT = { boardId: 'b1', chatId: 'c1' };

describe('resolveIds', () => {
  it('asks the workspace default when the suite names no target, and says so', () => {
    expect(resolveIds(options(), suite({}), DEFAULT)).toEqual({ boardId: 'b1', chatId: 'c1', notice: expect.stringMatching(/names no board: .*default target, board b1, chat c1/) });
  });

  it('keeps what the suite or flags name, completing only the default board', () => {
    expect(resolveIds(options({ target: { auth: 'header', board: 'b1', chat: 'c9' } }), suite({}), DEFAULT)).toEqual({ boardId: 'b1', chatId: 'c9' });
    expect(resolveIds(options({ target: { auth: 'header', board: 'b1' } }), suite({}), DEFAULT).chatId).toBe('c1');
    expect(() => resolveIds(options({ target: { auth: 'header', board: 'b2' } }), suite({}), DEFAULT)).toThrow(/no chat assistant to ask/);
  });

  it('without a default (a live service) a missing target is an input error', () => {
    expect(() => resolveIds(options(), suite({}))).toThrow(/no board to ask/);
  });
});
