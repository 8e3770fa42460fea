/** Served by scripts/demo-server.mjs: where the demo's local servers listen. */
declare module 'virtual:demo-config' {
  export const everythingUrl: string;
  /** An MCP server behind a real authorization server (sign-in with any login and password). */
  export const protectedUrl: string;
  /** A server whose tools run as tasks (MCP tasks); a job ends on POST <base>/finish. */
  export const tasksUrl: string;
  /** An MCP Apps server from npm (@modelcontextprotocol/server-debug): its tool has a view. */
  export const debugUrl: string;
  /** The MCP Apps sandbox page (dist/sandbox) on a second loopback origin. */
  export const sandboxUrl: string;
}
