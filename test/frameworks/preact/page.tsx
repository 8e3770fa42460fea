// A Preact page using every element with its attributes and every event it fires.
import type {} from 'mcp-chat-elements/preact';
import { sink } from '../shared/sinks.js';

export function Page() {
  return (
    <main>
      <mcp-server-manager
        theme="system"
        onmcp-server-save-request={(e) => sink['mcp-server-save-request'](e.detail)}
        onmcp-server-remove-request={(e) => sink['mcp-server-remove-request'](e.detail)}
        onmcp-server-added={(e) => sink['mcp-server-added'](e.detail)}
        onmcp-server-updated={(e) => sink['mcp-server-updated'](e.detail)}
        onmcp-server-removed={(e) => sink['mcp-server-removed'](e.detail)}
        onmcp-sign-in-completed={(e) => sink['mcp-sign-in-completed'](e.detail)}
        onmcp-sign-in-failed={(e) => sink['mcp-sign-in-failed'](e.detail)}
        onmcp-sign-out-completed={(e) => sink['mcp-sign-out-completed'](e.detail)}
      />
      <gpt-tool-selector
        gpt-id="assistant-1"
        theme="dark"
        onmcp-tool-selection-change-request={(e) => sink['mcp-tool-selection-change-request'](e.detail)}
        onmcp-tool-selection-changed={(e) => sink['mcp-tool-selection-changed'](e.detail)}
      />
      <mcp-tool-explorer
        server-id="everything"
        onmcp-tool-call-request={(e) => sink['mcp-tool-call-request'](e.detail)}
        onmcp-tool-call-completed={(e) => sink['mcp-tool-call-completed'](e.detail)}
        onmcp-skill-loaded={(e) => sink['mcp-skill-loaded'](e.detail)}
      />
      <mcp-tool-call
        call-id="call-1"
        return-focus="#composer"
        theme="light"
        onmcp-tool-call-started={(e) => sink['mcp-tool-call-started'](e.detail)}
        onmcp-tool-call-denied={(e) => sink['mcp-tool-call-denied'](e.detail)}
        onmcp-tool-call-cancelled={(e) => sink['mcp-tool-call-cancelled'](e.detail)}
        onmcp-elicitation-request={(e) => sink['mcp-elicitation-request'](e.detail)}
        onmcp-sampling-request={(e) => sink['mcp-sampling-request'](e.detail)}
      />
      <mcp-elicitation
        server-id="everything"
        show-all
        onmcp-elicitation-request={(e) => sink['mcp-elicitation-request'](e.detail)}
        onmcp-sampling-request={(e) => sink['mcp-sampling-request'](e.detail)}
      />
      <mcp-task-monitor
        server-id="everything"
        onmcp-task-changed={(e) => sink['mcp-task-changed'](e.detail)}
        onmcp-tool-call-cancelled={(e) => sink['mcp-tool-call-cancelled'](e.detail)}
      />
      <mcp-app-view
        call-id="call-1"
        server-id="everything"
        resource-uri="ui://everything/view"
        sandbox-url="https://sandbox.example/proxy.html"
        display-mode="inline"
        onmcp-app-initialized={(e) => sink['mcp-app-initialized'](e.detail)}
        onmcp-app-message={(e) => sink['mcp-app-message'](e.detail)}
      />
      <mcp-server-directory
        onmcp-server-save-request={(e) => sink['mcp-server-save-request'](e.detail)}
        onmcp-directory-closed={(e) => sink['mcp-directory-closed'](e.detail)}
      />
    </main>
  );
}
