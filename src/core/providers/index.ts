import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { openai } from './openai.js';
import { openaiResponses } from './openai-responses.js';
import type { Provider, ProviderAdapter } from './types.js';

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
