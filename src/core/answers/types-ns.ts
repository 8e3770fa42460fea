// The answer types under one name (`AnswerTypes`), so the hub façade imports them in one line.
export type { ElicitationResponse } from './elicitation.js';
export type { SamplingHandler, SamplingOptions, SamplingResponse } from './sampling.js';
