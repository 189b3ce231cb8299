// timeline.ndjson through store/: appended a second at a time, read back in order, a torn last line skipped and counted.
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IntervalSum } from '../metrics/interval-bucket.js';
import { droppedCountOf, droppedItemsOf, hasTimeline, readTimeline, TimelineFile, timelinePath } from './timeline-file.js';

describe('timeline.ndjson', () => {
  it('appends lines and reads them back; a killed run’s torn line is left out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-timeline-'));
    expect(hasTimeline(dir)).toBe(false);
    const file = new TimelineFile(timelinePath(dir));
    const line = (t: number) => ({ ...new IntervalSum().toLine(t, (t - 100) * 1000, 2), starts: t - 99 });
    file.append([line(100), line(101)]);
    file.append([line(102)]);
    appendFileSync(timelinePath(dir), '{"t":103,"sta');
    const stats = { lines: 0, unreadable: 0 };
    const read = [];
    for await (const l of readTimeline(dir, stats)) read.push(l);
    expect(read.map((l) => [l.t, l.starts])).toEqual([[100, 1], [101, 2], [102, 3]]);
    expect(stats).toEqual({ lines: 3, unreadable: 1 });
  });

  it('counts the drops of every segment and reads the ones a replay named (none without a file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-timeline-'));
    expect(await droppedCountOf(dir)).toBeNull();
    const file = new TimelineFile(timelinePath(dir));
    const line = (t: number, dropped: number, items?: string[]) => ({ ...new IntervalSum().toLine(t, 0, null), dropped, ...(items ? { dropped_items: items } : {}) });
    file.append([line(100, 2, ['case:line-3|model:default|r1', 'thread:c|turn:2|model:default|r1']), line(101, 0)]);
    // A resume's seconds, appended after them.
    file.append([line(150, 1, ['case:line-9|model:default|r1'])]);
    expect(await droppedCountOf(dir)).toBe(3);
    const items: string[] = [];
    for await (const item of droppedItemsOf(dir)) items.push(item);
    expect(items).toEqual(['case:line-3|model:default|r1', 'thread:c|turn:2|model:default|r1', 'case:line-9|model:default|r1']);
  });
});
