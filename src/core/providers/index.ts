import { McpConfigError } from '../errors.js';
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { openai } from './openai.js';
import { openaiResponses } from './openai-responses.js';
import { PROVIDERS, type Provider, type ProviderAdapter } from './types.js';

export * from './types.js';
export { toGeminiSchema } from './gemini-schema.js';
export { outcomeText } from './content.js';
export { OpenAIStreamAccumulator, AnthropicStreamAccumulator } from './streams.js';

export const adapters: Readonly<Record<Provider, ProviderAdapter>> = {
  openai,
  'openai-responses': openaiResponses,
  anthropic,
  gemini,
};

/** The adapter of a provider; a typed config error naming the choices for anything else. */
export function adapterFor(provider: Provider): ProviderAdapter {
  if (typeof provider !== 'string' || !Object.hasOwn(adapters, provider))
    throw new McpConfigError([{ path: 'provider', message: `must be one of ${PROVIDERS.join(', ')}` }]);
  return adapters[provider];
}
