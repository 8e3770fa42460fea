// A Solid page using every element with its attributes and every event it fires.
import type {} from 'mcp-chat-elements/solid';
import { sink } from '../shared/sinks.js';

export function Page() {
  return (
    <main>
      <mcp-server-manager
        theme="system"
        on:mcp-server-save-request={(e) => sink['mcp-server-save-request'](e.detail)}
        on:mcp-server-remove-request={(e) => sink['mcp-server-remove-request'](e.detail)}
        on:mcp-server-added={(e) => sink['mcp-server-added'](e.detail)}
        on:mcp-server-updated={(e) => sink['mcp-server-updated'](e.detail)}
        on:mcp-server-removed={(e) => sink['mcp-server-removed'](e.detail)}
        on:mcp-sign-in-completed={(e) => sink['mcp-sign-in-completed'](e.detail)}
        on:mcp-sign-in-failed={(e) => sink['mcp-sign-in-failed'](e.detail)}
        on:mcp-sign-out-completed={(e) => sink['mcp-sign-out-completed'](e.detail)}
      />
      <gpt-tool-selector
        gpt-id="assistant-1"
        theme="dark"
        on:mcp-tool-selection-change-request={(e) => sink['mcp-tool-selection-change-request'](e.detail)}
        on:mcp-tool-selection-changed={(e) => sink['mcp-tool-selection-changed'](e.detail)}
      />
      <mcp-tool-explorer
        server-id="everything"
        on:mcp-tool-call-request={(e) => sink['mcp-tool-call-request'](e.detail)}
        on:mcp-tool-call-completed={(e) => sink['mcp-tool-call-completed'](e.detail)}
        on:mcp-skill-loaded={(e) => sink['mcp-skill-loaded'](e.detail)}
      />
      <mcp-tool-call
        call-id="call-1"
        return-focus="#composer"
        theme="light"
        on:mcp-tool-call-started={(e) => sink['mcp-tool-call-started'](e.detail)}
        on:mcp-tool-call-denied={(e) => sink['mcp-tool-call-denied'](e.detail)}
        on:mcp-tool-call-cancelled={(e) => sink['mcp-tool-call-cancelled'](e.detail)}
        on:mcp-elicitation-request={(e) => sink['mcp-elicitation-request'](e.detail)}
        on:mcp-sampling-request={(e) => sink['mcp-sampling-request'](e.detail)}
      />
      <mcp-elicitation
        server-id="everything"
        show-all
        on:mcp-elicitation-request={(e) => sink['mcp-elicitation-request'](e.detail)}
        on:mcp-sampling-request={(e) => sink['mcp-sampling-request'](e.detail)}
      />
      <mcp-task-monitor
        server-id="everything"
        on:mcp-task-changed={(e) => sink['mcp-task-changed'](e.detail)}
        on:mcp-tool-call-cancelled={(e) => sink['mcp-tool-call-cancelled'](e.detail)}
      />
      <mcp-app-view
        call-id="call-1"
        server-id="everything"
        resource-uri="ui://everything/view"
        sandbox-url="https://sandbox.example/proxy.html"
        display-mode="inline"
        on:mcp-app-initialized={(e) => sink['mcp-app-initialized'](e.detail)}
        on:mcp-app-message={(e) => sink['mcp-app-message'](e.detail)}
      />
      <mcp-server-directory
        on:mcp-server-save-request={(e) => sink['mcp-server-save-request'](e.detail)}
        on:mcp-directory-closed={(e) => sink['mcp-directory-closed'](e.detail)}
      />
    </main>
  );
}
