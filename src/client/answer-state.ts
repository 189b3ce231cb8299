// Accumulates one answer as it arrives: text, timed chunks, credits and the monotonic marks.
import type { AnswerMarks, AnswerResult, ContentChunk, PartialAnswer } from '../domain/index.js';
import type { AnswerDialect } from './decode/events.js';

export class AnswerState {
  status: number | null = null;
  dialect: AnswerDialect | null = null;
  creditsUsed: number | null = null;
  creditsRemaining: number | null = null;
  /** A reported credit value that was not believed, with the value seen (client/credit-value.ts). */
  creditsInvalid: string | null = null;
  finished = false;
  readonly chunks: ContentChunk[] = [];
  /** The text so far, appended as it arrives (a rope: no array of parts to join per answer). */
  private textSoFar = '';
  readonly marks: AnswerMarks;

  constructor(sentAt: number) {
    this.marks = { sentAt, headersAt: null, firstChunkAt: null, lastChunkAt: null, finishAt: null, usageAt: null, endAt: sentAt };
  }

  get text(): string {
    return this.textSoFar;
  }

  onHeaders(status: number, atMs: number): void {
    this.status = status;
    this.marks.headersAt = atMs;
  }

  onText(text: string, atMs: number): void {
    this.chunks.push({ text, atMs });
    this.textSoFar += text;
    this.marks.firstChunkAt ??= atMs;
    this.marks.lastChunkAt = atMs;
  }

  /** Only the first finish counts: a data stream may close a step (e:) and then the message (d:). */
  onFinish(atMs: number): void {
    if (this.finished) return;
    this.finished = true;
    this.marks.finishAt = atMs;
  }

  onUsage(creditsUsed: number | null, creditsRemaining: number | null, atMs: number, invalid: string | null = null): void {
    this.creditsUsed = creditsUsed;
    this.creditsInvalid = invalid;
    if (creditsRemaining !== null) this.creditsRemaining = creditsRemaining;
    this.marks.usageAt = atMs;
  }

  partial(endAt: number): PartialAnswer {
    this.marks.endAt = endAt;
    return { status: this.status, text: this.text, chunks: [...this.chunks], marks: { ...this.marks } };
  }

  /** The finished answer: the state is not used after this, so its chunks and marks are handed over, not copied. */
  result(endAt: number): AnswerResult {
    this.marks.endAt = endAt;
    const dialect = this.dialect ?? 'json';
    const result: AnswerResult = {
      status: this.status ?? 0,
      text: this.text,
      streamed: dialect !== 'json',
      dialect,
      chunks: this.chunks,
      creditsUsed: this.creditsUsed,
      creditsRemaining: this.creditsRemaining,
      finished: this.finished,
      marks: this.marks,
    };
    if (this.creditsInvalid !== null) result.creditsInvalid = this.creditsInvalid;
    return result;
  }
}
