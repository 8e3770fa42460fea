/** Served by scripts/demo-server.mjs: where the demo's local servers listen. */
declare module 'virtual:demo-config' {
  export const everythingUrl: string;
}
