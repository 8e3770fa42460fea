// The relay or the backend chat handler as an AWS Lambda handler, through Hono's aws-lambda
// adapter (API Gateway v1/v2, Function URLs, ALB events): `stream: true` (default) answers with
// Lambda response streaming (a Function URL with InvokeMode RESPONSE_STREAM; the runtime's
// `awslambda.streamifyResponse`), `stream: false` buffers the answer (API Gateway).
import { Hono } from 'hono';
import { handle, streamHandle } from 'hono/aws-lambda';

/** A Fetch handler (`createRelay()`, `createChatHandler()`) as a Lambda handler. */
export function lambdaHandler(
  handler: (request: Request) => Promise<Response>,
  options: { stream?: boolean } = {},
): ReturnType<typeof handle> | ReturnType<typeof streamHandle> {
  const app = new Hono();
  app.all('*', (c) => handler(c.req.raw));
  return options.stream === false ? handle(app) : streamHandle(app);
}
