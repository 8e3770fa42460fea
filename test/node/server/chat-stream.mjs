// Reads the backend chat handler's event stream into [{ event, data }] (shared by the Node,
// workerd and Lambda tests).
export async function readChatStream(response) {
  return parseChatStream(await response.text());
}

export function parseChatStream(text) {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return { event, data: data ? JSON.parse(data) : undefined };
    });
}
