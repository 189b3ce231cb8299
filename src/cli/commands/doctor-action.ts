// `kbbench doctor`'s handler: the key, the embedded service when no --base-url, the plan printed
// before anything is sent, then the rows, doctor.json and the verdict.
import { resolve } from 'node:path';
import { createRedactor } from '../../client/redact.js';
import { planLines, rowLines, runDoctor, verdictLine, type DoctorVerdict } from '../../doctor/index.js';
import { writeFileAtomic } from '../../store/atomic-file.js';
import { startEmbeddedService, type EmbeddedService } from '../embedded.js';
import type { CliIo } from '../io.js';
import { requireApiKey } from '../secrets.js';
import { TOOL_VERSION } from '../version.js';

export interface DoctorArgs {
  baseUrl?: string;
  apiKeyFile?: unknown;
  board?: unknown;
  chat?: unknown;
  workspace?: unknown;
  json?: unknown;
  maxCredits: number;
  timeoutMs: number;
  /** As the user wrote it (relative to io.cwd): the lines name it so. */
  out: string;
}

async function serviceOf(io: CliIo, a: DoctorArgs): Promise<{ baseUrl: string; apiKey: string; embedded?: EmbeddedService }> {
  const keyFile = a.apiKeyFile as string | undefined;
  if (a.baseUrl !== undefined) {
    return { baseUrl: a.baseUrl, apiKey: requireApiKey(io, keyFile) };
  }
  const embedded = await startEmbeddedService(a.workspace === undefined ? {} : { workspacePath: String(a.workspace) }, io.env);
  io.setRedact(createRedactor([embedded.key]));
  return { baseUrl: embedded.url, apiKey: embedded.key, embedded };
}

export async function doctorAction(io: CliIo, a: DoctorArgs): Promise<DoctorVerdict> {
  const service = await serviceOf(io, a);
  try {
    const defaults = service.embedded?.defaultTarget;
    const boardId = (a.board as string | undefined) ?? defaults?.boardId;
    const chatId = (a.chat as string | undefined) ?? defaults?.chatId;
    const target = { baseUrl: service.baseUrl, apiKey: service.apiKey, maxCredits: a.maxCredits, timeoutMs: a.timeoutMs, ...(boardId && chatId ? { boardId, chatId } : {}) };
    for (const line of planLines(target)) io.err(line);
    const report = await runDoctor({ ...target, embedded: service.embedded !== undefined, toolVersion: TOOL_VERSION, checkedAt: new Date().toISOString() });
    const text = `${JSON.stringify(report, null, 2)}\n`;
    if (a.json === true) {
      io.out(text.trimEnd());
      io.err(verdictLine(report, null));
    } else {
      await writeFileAtomic(resolve(io.cwd, a.out), text);
      for (const line of rowLines(report.rows)) io.out(line);
      io.out(verdictLine(report, a.out));
      if (report.suggested_flags.length) io.out(`run with what it found: kbbench run SUITE --profile ${a.out}  (or ${report.suggested_flags.join(' ')})`);
    }
    return report.verdict;
  } finally {
    await service.embedded?.stop();
  }
}
