/** The chat page: a task box, the run as it happens, and the answer. Its script is /page.js. */
export function pageHtml(title: string, token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<meta name="swarm-token" content="${escapeHtml(token)}">
<title>${escapeHtml(title)} · swarm chat</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
  form { display: flex; gap: .5rem; }
  #task { flex: 1; padding: .5rem; font: inherit; }
  button { padding: .5rem 1rem; font: inherit; }
  #status { color: #666; margin: .75rem 0; }
  .part { margin: .35rem 0; }
  .run { color: #555; font-weight: 600; }
  .agent { color: #0a5; font-size: .9em; }
  .agent.failed, .run.failed { color: #c00; }
  .text .who { font-weight: 600; margin-right: .5rem; }
  .tool { font-family: ui-monospace, monospace; font-size: .85em; background: #f4f4f6; padding: .35rem .5rem; border-radius: 4px; }
  #answer { margin-top: 1rem; padding: .75rem; border-left: 4px solid #0a5; background: #f3fbf6; }
  #answer:empty, #error:empty { display: none; }
  #error { color: #c00; margin-top: 1rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<form id="task-form">
  <input id="task" name="task" autocomplete="off" placeholder="Ask the team" value="When was the paperclip patented?">
  <button id="run" type="submit">Run</button>
  <button id="stop" type="button" disabled>Stop</button>
</form>
<div id="status">Ready.</div>
<div id="parts"></div>
<div id="answer"></div>
<div id="error"></div>
<script type="module" src="/page.js"></script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
