// Exit codes by the error's stable code, not its class (CONTRACT.md: 2 invalid input, 3 stopped).
import { describe, expect, it } from 'vitest';
import { ConfigError, InputError, KB_ERROR_CODES, ServerError, StorageError } from '../domain/errors.js';
import { describeError, EXIT, exitCodeFor } from './exit.js';

describe('exitCodeFor', () => {
  it('input and config errors are 2, every other code 3', () => {
    expect(exitCodeFor(new InputError('bad', { file: 'a.yaml', line: 3, field: 'cases' }))).toBe(EXIT.input);
    expect(exitCodeFor(new ConfigError('bad flag'))).toBe(EXIT.input);
    expect(exitCodeFor(new ServerError('down', 500, null))).toBe(EXIT.stopped);
    expect(exitCodeFor(new StorageError('disk full', 'results.ndjson', 'ENOSPC'))).toBe(EXIT.stopped);
    expect(KB_ERROR_CODES.map((code) => exitCodeFor({ code })).filter((exit) => exit === EXIT.input)).toHaveLength(2);
  });

  it('an error that lost its class on the way (a worker thread, a second copy of a module) keeps its exit by its code', () => {
    const crossed = Object.assign(new Error('suite.yaml:4 cases: expected a list'), { code: 'E_INPUT' });
    expect(exitCodeFor(crossed)).toBe(EXIT.input);
    expect(describeError(crossed)).toBe('E_INPUT: suite.yaml:4 cases: expected a list');
  });

  it("a system error's code (ENOENT) or no error at all is 3, described with its stack or as text", () => {
    const system = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(exitCodeFor(system)).toBe(EXIT.stopped);
    expect(describeError(system)).toContain('no such file');
    expect(exitCodeFor('text')).toBe(EXIT.stopped);
    expect(describeError('text')).toBe('text');
  });

  it('an input error is described as file:line field: message, each of its issues on a line', () => {
    expect(describeError(new InputError('expected a list', { file: 'a.yaml', line: 3, field: 'cases' }))).toBe('a.yaml:3 cases: expected a list');
    const many = Object.assign(new InputError('2 problems'), { issues: [new InputError('one', { file: 'a.csv', line: 2 }), new InputError('two', { file: 'a.csv', line: 5 })] });
    expect(describeError(many)).toBe('a.csv:2 one\na.csv:5 two');
    expect(describeError(new ServerError('down', 500, null))).toBe('E_SERVER: down');
  });
});
