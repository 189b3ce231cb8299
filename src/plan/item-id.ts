// Stable ids of work items: the same case, model and repeat gets the same id in every run and
// resume, so results can be matched across runs (`compare`, `--resume`, `merge`).

export function caseItemId(caseId: string, model: string, repeat: number): string {
  return `case:${caseId}|model:${model}|r${repeat}`;
}

export function threadKey(threadId: string, model: string, repeat: number): string {
  return `thread:${threadId}|model:${model}|r${repeat}`;
}

export function turnItemId(threadId: string, turn: number, model: string, repeat: number): string {
  return `thread:${threadId}|turn:${turn}|model:${model}|r${repeat}`;
}
