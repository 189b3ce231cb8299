import { describe, expect, it } from 'vitest';
import { assertSwitchValues } from './switch-values.js';

describe('assertSwitchValues', () => {
  it('refuses a switch given a value other than true or false, naming it', () => {
    expect(() => assertSwitchValues(['run', 'a.yaml', '--loop=abc'], ['loop'])).toThrow(/is a switch: write --loop alone.*not --loop=abc/);
    // yargs reads `--stream=1` as false: refused, not turned off.
    expect(() => assertSwitchValues(['--stream=1'], ['stream'])).toThrow(/--stream=1/);
    expect(() => assertSwitchValues(['--grader-cache=0'], ['graderCache'])).toThrow(/--grader-cache/);
  });

  it('takes true and false, switches alone, valued flags and anything after --', () => {
    expect(() => assertSwitchValues(['--quiet=true', '--json=false', '--quiet', '--rate=5', '--', '--loop=x'], ['quiet', 'json', 'loop'])).not.toThrow();
  });

  it('refuses a negated switch given a value (--no-stream=1), naming it', () => {
    expect(() => assertSwitchValues(['--no-stream=1'], ['stream'])).toThrow(/is a switch: write --no-stream alone, not --no-stream=1/);
  });

  it('knows a switch by its alias', () => {
    expect(() => assertSwitchValues(['--q=yes'], ['quiet'], { quiet: ['q'] })).toThrow(/--q=yes/);
  });
});
