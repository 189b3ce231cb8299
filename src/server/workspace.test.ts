import { describe, expect, it } from 'vitest';
import { symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { loadWorkspace, MAX_DOCUMENT_BYTES, WorkspaceError } from './workspace.js';
import { DEMO, loadDemoWorkspace, writeTempFiles } from './test-helpers.js';

const valid = `accounts:
  - { id: a, name: A, key: key-aaaa-0001, credits: 12.5 }
boards:
  - id: b1
    name: Board
    account: a
    chats:
      - id: c1
        documents: [docs/one.md]
`;

async function loadError(yaml: string, files: Record<string, string> = {}): Promise<WorkspaceError> {
  const folder = await writeTempFiles({ 'ws.yaml': yaml, ...files });
  const error = await loadWorkspace(join(folder, 'ws.yaml')).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceError);
  return error as WorkspaceError;
}

describe('loading a workspace', () => {
  it('loads the demo workspace with its boards, chats, judge and documents', async () => {
    const workspace = await loadDemoWorkspace();
    expect(workspace.accounts.map((a) => a.key)).toEqual([DEMO.key, DEMO.otherKey]);
    expect(workspace.accounts[0]?.creditsUnits).toBe(10000 * 100000);
    const board = workspace.boards.find((b) => b.id === DEMO.boardId);
    const chat = board?.chats.find((c) => c.id === DEMO.chatId);
    expect(chat?.documents.map((d) => d.name)).toContain('docs/refunds.md');
    expect(chat?.passages.length).toBeGreaterThan(40);
    expect(board?.chats.find((c) => c.id === DEMO.judgeChatId)?.kind).toBe('judge');
    expect(workspace.boards.find((b) => b.id === DEMO.otherBoardId)?.accountId).toBe('other');
  });

  it('resolves document paths against the workspace folder', async () => {
    const folder = await writeTempFiles({ 'sub/ws.yaml': valid, 'sub/docs/one.md': '# One\n\nHello there.' });
    const workspace = await loadWorkspace(join(folder, 'sub/ws.yaml'));
    expect(workspace.boards[0]?.chats[0]?.documents[0]).toMatchObject({ name: 'docs/one.md', title: 'One', path: join(folder, 'sub/docs/one.md') });
    expect(workspace.boards[0]?.chats[0]?.name).toBe('c1');
    expect(workspace.accounts[0]?.creditsUnits).toBe(1250000);
  });

  it('names the file, line and field of a schema error', async () => {
    const error = await loadError(valid.replace('credits: 12.5', 'credits: lots'));
    expect(error.field).toBe('accounts[0].credits');
    expect(error.message).toContain('ws.yaml:2: accounts[0].credits');
  });

  it('refuses a balance too large to debit exactly to 5 decimals', async () => {
    const error = await loadError(valid.replace('credits: 12.5', 'credits: 1e12'));
    expect(error.field).toBe('accounts[0].credits');
    expect(error.message).toContain('at most 9999999999');
  });

  it('names a missing document by its field path', async () => {
    const error = await loadError(valid);
    expect(error.field).toBe('boards[0].chats[0].documents[0]');
    expect(error.line).toBe(9);
    expect(error.message).toMatch(/cannot read document .*one\.md: ENOENT/);
  });

  it('rejects unknown accounts, duplicate ids, unknown fields and bad YAML', async () => {
    const docs = { 'docs/one.md': '# One' };
    expect((await loadError(valid.replace('account: a', 'account: nobody'), docs)).field).toBe('boards[0].account');
    const twice = `${valid}  - { id: b2, name: Again, account: a, chats: [ { id: c1 } ] }\n`;
    expect((await loadError(twice, docs)).message).toContain('boards[1].chats[0].id: duplicate chat id "c1"');
    expect((await loadError(valid.replace('name: Board', 'name: Board\n    colour: blue'), docs)).field).toBe('boards[0]');
    expect((await loadError('accounts: [ { id: a\n', docs)).message).toContain('invalid YAML');
    expect((await loadError('boards: []\n', docs)).field).toBe('accounts');
  });

  it('accepts model overrides and judge chats without documents', async () => {
    const yaml = `${valid}      - { id: judge, kind: judge }\nmodels:\n  my-model: { ttfcMedianMs: 10 }\n`;
    const folder = await writeTempFiles({ 'ws.yaml': yaml, 'docs/one.md': '# One' });
    const workspace = await loadWorkspace(join(folder, 'ws.yaml'));
    expect(workspace.models).toEqual({ 'my-model': { ttfcMedianMs: 10 } });
    expect(workspace.boards[0]?.chats[1]).toMatchObject({ id: 'judge', kind: 'judge', documents: [] });
  });
});

describe('the documents root', () => {
  const withDoc = (doc: string): string => valid.replace('documents: [docs/one.md]', `documents: ['${doc}']`);

  it('refuses a document outside the workspace folder, with file:line and field', async () => {
    for (const doc of ['../../../../etc/passwd', '/etc/passwd', '/proc/self/environ']) {
      const error = await loadError(withDoc(doc), { 'docs/one.md': '# One' });
      expect(error.field).toBe('boards[0].chats[0].documents[0]');
      expect(error.line).toBe(9);
      expect(error.message).toMatch(/ws\.yaml:9: .*outside the documents root/);
    }
  });

  it('follows symlinks before deciding: a link inside the folder to a file outside is refused', async () => {
    const folder = await writeTempFiles({ 'ws.yaml': withDoc('docs/link.md'), 'docs/one.md': '# One' });
    symlinkSync('/etc/hostname', join(folder, 'docs/link.md'));
    await expect(loadWorkspace(join(folder, 'ws.yaml'))).rejects.toThrow(/outside the documents root/);
  });

  it('serves a folder named explicitly as docs_root, and still nothing outside it', async () => {
    const shared = await writeTempFiles({ 'kb/one.md': '# One\n\nHello.' });
    const ok = await writeTempFiles({ 'ws.yaml': `docs_root: ${shared}/kb\n${withDoc(`${shared}/kb/one.md`)}` });
    expect((await loadWorkspace(join(ok, 'ws.yaml'))).boards[0]?.chats[0]?.documents[0]?.title).toBe('One');
    const outside = await writeTempFiles({ 'ws.yaml': `docs_root: ${shared}/kb\n${withDoc('/etc/passwd')}` });
    await expect(loadWorkspace(join(outside, 'ws.yaml'))).rejects.toThrow(/outside the documents root/);
  });

  it('refuses what is not a regular file (a device), even inside the root', async () => {
    const folder = await writeTempFiles({ 'ws.yaml': `docs_root: /dev\n${withDoc('/dev/zero')}` });
    await expect(loadWorkspace(join(folder, 'ws.yaml'))).rejects.toThrow(/not a regular file/);
  });

  it('refuses a document past MAX_DOCUMENT_BYTES (16 MiB) from its size, before reading it', async () => {
    const folder = await writeTempFiles({ 'ws.yaml': valid, 'docs/one.md': '' });
    truncateSync(join(folder, 'docs', 'one.md'), MAX_DOCUMENT_BYTES + 1); // sparse: no 16 MiB written
    await expect(loadWorkspace(join(folder, 'ws.yaml'))).rejects.toThrow(`larger than the limit of ${MAX_DOCUMENT_BYTES} bytes`);
  });

  it('names a docs_root that does not exist', async () => {
    const error = await loadError(`docs_root: nowhere\n${valid}`, { 'docs/one.md': '# One' });
    expect(error.field).toBe('docs_root');
    expect(error.line).toBe(1);
  });
});
