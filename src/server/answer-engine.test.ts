import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { answerQuestion, type AnswerRequest } from './answer-engine.js';
import { NO_ANSWER_TEXT } from './compose.js';
import type { SavedTurn } from './conversations.js';
import { DEFAULT_MODEL_PROFILES } from './model-profiles.js';
import { KnowledgeIndex } from './retrieval.js';
import { DEMO, loadDemoWorkspace, writeTempFiles } from './test-helpers.js';
import { loadWorkspace, type WorkspaceChat } from './workspace.js';

async function demoChat(chatId: string = DEMO.chatId): Promise<{ chat: WorkspaceChat; index: KnowledgeIndex }> {
  const workspace = await loadDemoWorkspace();
  const chat = workspace.boards.flatMap((b) => b.chats).find((c) => c.id === chatId);
  if (!chat) throw new Error(`no chat ${chatId}`);
  return { chat, index: new KnowledgeIndex(chat.passages) };
}

async function ask(prompt: string, extra: Partial<AnswerRequest> = {}): Promise<ReturnType<typeof answerQuestion>> {
  const { chat, index } = await demoChat(extra.chat?.id);
  const model = extra.model ?? 'claude-sonnet-4-6';
  const profile = DEFAULT_MODEL_PROFILES[model as keyof typeof DEFAULT_MODEL_PROFILES];
  return answerQuestion({ chat, index, model, profile, prompt, additionalContext: ' ', history: [], plaintext: false, seed: 1, ...extra });
}

function remember(history: SavedTurn[], prompt: string, answer: ReturnType<typeof answerQuestion>): void {
  history.push({ prompt, answer: answer.text, quoted: answer.quoted, focus: answer.focus, model: 'gpt-4o' });
}

describe('answers from retrieval', () => {
  it('quotes the documents that hold the fact, with a Sources line', async () => {
    const answer = await ask('How long do customers have to ask for a refund?');
    expect(answer.text).toContain('30 days');
    expect(answer.text).toMatch(/^Sources: Refunds and cancellations \(refunds\.md\)$/m);
    expect(answer.text).toMatch(/^- /m);
    expect(answer.quoted[0]?.docName).toBe('docs/refunds.md');
    expect(answer.inputChars).toBeGreaterThan('How long do customers have to ask for a refund?'.length);
  });

  it('says it does not know when nothing relevant is found', async () => {
    const answer = await ask('What is the capital of France?');
    expect(answer.text).toBe(NO_ANSWER_TEXT);
    expect(answer.quoted).toEqual([]);
  });

  it('answers from additional_context for that question only', async () => {
    const withContext = await ask('What is my favourite number?', { additionalContext: 'My favourite number is 444' });
    expect(withContext.text).toContain('444');
    expect(withContext.text).toContain('Sources: additional context');
    expect((await ask('What is my favourite number?')).text).not.toContain('444');
  });

  it('is deterministic for a seed, and models differ in style and length', async () => {
    const prompt = 'Which plans include single sign-on?';
    expect((await ask(prompt)).text).toBe((await ask(prompt)).text);
    const claude = await ask(prompt, { model: 'claude-sonnet-4-6' });
    const mini = await ask(prompt, { model: 'gpt-4o-mini' });
    const o3 = await ask(prompt, { model: 'o3-mini' });
    expect(mini.quoted.length).toBeLessThanOrEqual(DEFAULT_MODEL_PROFILES['gpt-4o-mini'].maxPassages);
    expect(mini.text).not.toBe(claude.text);
    expect(o3.text).toMatch(/^1\. /m);
    for (const answer of [claude, mini, o3]) expect(answer.text.toLowerCase()).toContain('business');
  });

  it('writes plain text without markdown syntax when asked', async () => {
    const answer = await ask('How much does the Team plan cost?', { plaintext: true });
    expect(answer.text).toContain('€29');
    expect(answer.text).not.toMatch(/\*\*|^- |^#|`/m);
  });

  it('changes its answer when a document changes', async () => {
    const yaml = 'accounts: [ { id: a, name: A, key: key-aaaa-0001, credits: 1 } ]\nboards: [ { id: b, name: B, account: a, chats: [ { id: c, documents: [doc.md] } ] } ]\n';
    const load = async (doc: string): Promise<WorkspaceChat> => {
      const folder = await writeTempFiles({ 'ws.yaml': yaml, 'doc.md': doc });
      const chat = (await loadWorkspace(join(folder, 'ws.yaml'))).boards[0]?.chats[0];
      if (!chat) throw new Error('no chat');
      return chat;
    };
    const before = await load('# Refunds\n\nRefunds are possible within 30 days.');
    const after = await load('# Refunds\n\nRefunds are possible within 60 days.');
    const answerOf = (chat: WorkspaceChat): string =>
      answerQuestion({ chat, index: new KnowledgeIndex(chat.passages), model: 'gpt-4o', profile: DEFAULT_MODEL_PROFILES['gpt-4o'], prompt: 'When can I get a refund?', additionalContext: ' ', history: [], plaintext: false, seed: 1 }).text;
    expect(answerOf(before)).toContain('30 days');
    expect(answerOf(after)).toContain('60 days');
  });
});

describe('answers inside a thread', () => {
  it('resolves "the second one" against the list the previous answer showed', async () => {
    for (const model of ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'] as const) {
      const history: SavedTurn[] = [];
      const plans = await ask('Which plans do you offer?', { model });
      expect(plans.text).toMatch(/Starter[\s\S]*Team/);
      remember(history, 'Which plans do you offer?', plans);
      const second = await ask('How much is the second one?', { model, history });
      expect(second.text).toContain('€29');
      remember(history, 'How much is the second one?', second);
      const sso = await ask('Does it include single sign-on?', { model, history });
      expect(sso.text).toContain('not available on the Starter and Team plans');
    }
  });

  it('still knows a fact from an earlier turn’s additional_context', async () => {
    const history: SavedTurn[] = [];
    const first = await ask('What is my favourite number?', { additionalContext: 'My favourite number is 444' });
    remember(history, 'What is my favourite number?', first);
    const followUp = await ask('Please remind me, what was my favourite number?', { history });
    expect(followUp.text).toContain('444');
    expect(followUp.text).toContain('Sources: this conversation');
  });

  it('remembers statements the user made earlier', async () => {
    const history: SavedTurn[] = [];
    remember(history, 'My name is Ada Lovelace.', await ask('My name is Ada Lovelace.'));
    expect((await ask('What is my name?', { history })).text).toContain('Ada Lovelace');
  });
});

describe('the judge chat', () => {
  it('grades the answer in the prompt instead of retrieving', async () => {
    const { chat } = await demoChat(DEMO.judgeChatId);
    const pass = await ask('RUBRIC:\nMust mention "30 days".\nANSWER:\nRefunds within 30 days.', { chat });
    expect(pass.text.split('\n')[0]).toBe('VERDICT: PASS');
    const fail = await ask('RUBRIC:\nMust mention "30 days".\nANSWER:\nNo refunds.', { chat });
    expect(fail.text.split('\n')[0]).toBe('VERDICT: FAIL');
  });
});
