// An edge handler (the relay, the backend chat handler) as an AWS Lambda handler, through Hono's aws-lambda
// adapter (API Gateway v1/v2, Function URLs, ALB events): `stream: true` (default) answers with
// Lambda response streaming (a Function URL with InvokeMode RESPONSE_STREAM; the runtime's
// `awslambda.streamifyResponse`), `stream: false` buffers the answer (API Gateway).
import { Hono } from 'hono';
import { handle, streamHandle } from 'hono/aws-lambda';
import type { EdgeRequestInfo } from './handler.js';

interface LambdaEvent {
  requestContext?: {
    domainName?: string;
    /** API Gateway REST (payload 1.0). */
    identity?: { sourceIp?: string };
    /** API Gateway HTTP API and Function URLs (payload 2.0). */
    http?: { sourceIp?: string };
  };
}

/**
 * What the event says of the client and of the domain it was sent to. An ALB event says neither:
 * behind an ALB pass `clientIpHeader: 'x-forwarded-for'` (the ALB appends the client's address)
 * and `publicUrl` or `allowedHosts` to the relay.
 */
export function lambdaRequestInfo(event: LambdaEvent | undefined): EdgeRequestInfo {
  const context = event?.requestContext;
  return {
    clientAddress: context?.http?.sourceIp ?? context?.identity?.sourceIp,
    host: context?.domainName,
  };
}

/** A Fetch handler (`createRelay()`, `createChatHandler()`) as a Lambda handler. */
export function lambdaHandler(
  handler: (request: Request, info: EdgeRequestInfo) => Promise<Response>,
  options: { stream?: boolean } = {},
): ReturnType<typeof handle> | ReturnType<typeof streamHandle> {
  const app = new Hono<{ Bindings: { event?: LambdaEvent } }>();
  app.all('*', (c) => handler(c.req.raw, lambdaRequestInfo(c.env?.event)));
  return options.stream === false ? handle(app) : streamHandle(app);
}
