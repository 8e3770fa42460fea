// mcp-chat-elements/relay/lambda: the relay or the backend chat handler as an AWS Lambda handler
// (the edge kit's adapter, src/edge/lambda.ts).
export { lambdaHandler, lambdaRequestInfo } from '../edge/lambda.js';
