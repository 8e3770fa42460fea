// How an answer refuses a server's request: an error whose numeric `code` the SDK's protocol
// layer sends back as the JSON-RPC error code (it reads `error.code` of whatever a handler
// throws). Not the SDK's ProtocolError, so the answers stay out of the connection chunk.

/** JSON-RPC error codes an answer refuses with. */
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** A refusal of a server's request (elicitation, sampling), sent back as a JSON-RPC error. */
export class AnswerRefusal extends Error {
  override readonly name = 'AnswerRefusal';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
