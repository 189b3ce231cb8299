// promptfoo's `providers` as kbbench models: `openai:gpt-4o` is model gpt-4o of the service.
// The service under test is always the provider; a provider that names something else (an HTTP
// endpoint, a script, an echo) cannot be mapped and is an input error saying so.
import type { Problems } from './test-model.js';
import type { YamlLocator } from '../yaml-locator.js';

/** promptfoo's API kinds between vendor and model: `openai:chat:gpt-4o`, `anthropic:messages:…`. */
const API_KINDS = new Set(['chat', 'completion', 'messages', 'responses', 'embedding', 'embeddings']);

/** Providers that are code or another endpoint, not a model: no model of the service means them. */
const NOT_A_MODEL = /^(?:https?:|file:|exec:|python:|golang:|ruby:|webhook:|echo$|sequence$|script:|.*\.(?:js|mjs|cjs|ts|py)$)/i;

/** The model a provider id names, or undefined when it names no model (`http://…`, `exec:…`). */
export function modelOfProvider(id: string): string | undefined {
  const text = id.trim();
  if (text === '' || NOT_A_MODEL.test(text)) return undefined;
  const parts = text.split(':');
  if (parts.length < 2) return undefined;
  const rest = parts.slice(1);
  if (rest.length > 1 && API_KINDS.has(rest[0]!.toLowerCase())) rest.shift();
  const model = rest.join(':').trim();
  return model === '' ? undefined : model;
}

const WHY = 'the service under test is the provider: a provider names one of its models, as vendor:model (openai:gpt-4o → model gpt-4o); for another endpoint pass --base-url';

/** The models the providers name, in order; what cannot be mapped is a problem at its line. */
export function readProviders(raw: unknown, locator: YamlLocator, problems: Problems, warnings: string[]): string[] {
  if (raw === undefined || raw === null) return [];
  const entries = Array.isArray(raw) ? raw : [raw];
  const models: string[] = [];
  entries.forEach((entry, index) => {
    const path = Array.isArray(raw) ? ['providers', index] : ['providers'];
    const where = { ...locator.location(path), field: Array.isArray(raw) ? `providers[${index}]` : 'providers' };
    const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const id = typeof entry === 'string' ? entry : record?.id;
    if (typeof id !== 'string') {
      problems.add(`a provider is a text such as openai:gpt-4o, or a map with an id; ${WHY}`, where);
      return;
    }
    const model = modelOfProvider(id);
    if (model === undefined) {
      problems.add(`provider "${id}" names no model kbbench can ask the service for; ${WHY}`, where);
      return;
    }
    if (models.includes(model)) problems.add(`provider "${id}" names model "${model}" a second time`, where);
    else models.push(model);
    const extra = record ? Object.keys(record).filter((key) => !['id', 'label'].includes(key)) : [];
    if (extra.length > 0) warnings.push(locator.warning(path, `provider "${id}": ${extra.join(', ')} not sent (the service sets its own generation settings); it runs as model "${model}"`));
    if (typeof record?.label === 'string' && record.label !== model) warnings.push(locator.warning(path, `provider label "${record.label}" is reported as model "${model}"`));
  });
  return models;
}
