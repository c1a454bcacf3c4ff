#!/usr/bin/env node
// ts_client.mjs: drives an MCP server with the TypeScript SDK v1
// (@modelcontextprotocol/sdk 1.32.2), which only speaks the legacy handshake
// (initialize + session).
//
// Usage:
//   node ts_client.mjs [--timeout MS] URL
//   node ts_client.mjs [--timeout MS] stdio CMD [ARGS...]
//
// The SDK is loaded from $TS_SDK_NODE_MODULES, else from
// ${MCP_INTEROP_HOME:-$HOME/.cache/mcp-interop}/clients/node_modules (install.sh).
//
// Checks, in order, printing `ok: <name>` for each and stopping with a
// `FAIL: <name>: <why>` line on stderr (exit 1) at the first that does not hold:
// the protocol version (HTTP only; stdio does not expose it), tools/list (with
// test_simple_text, every tool described), test_simple_text, test_tool_with_progress
// (>= 3 non-decreasing progress notifications), test_sampling and test_elicitation
// (answered by this client's handlers), test_tool_with_logging after
// logging/setLevel debug (>= 3 log notifications), the 2025-11-25 core tasks
// (SEP-1686) through the SDK's client.experimental.tasks API (below),
// resources/read of test://template/42/data, prompts/get
// test_prompt_with_arguments, completion/complete; over HTTP it ends with DELETE
// (terminateSession).
//
// The tasks checks: the server advertises tasks (tools/call, cancel, list) and
// lists long_report and slow_compute with execution.taskSupport; long_report
// {sections: 2} runs as a task (callToolStream with task {ttl}): the SDK polls
// tasks/get, meets input_required, calls tasks/result, whose stream carries the
// task's elicitation to this client's handler (it answers audience = AUDIENCE),
// and returns "A report of 2 sections for <AUDIENCE>"; tasks/get then says
// completed. slow_compute {seconds: 60} runs as a task and is cancelled
// (cancelTask) as soon as it is created: tasks/cancel and the following
// tasks/get say cancelled, and the SDK's stream ends with its "cancelled" error,
// not a result. tasks/list lists both tasks with those statuses.

import { sdkModuleUrl } from './sdk.mjs';

const USAGE = 'usage: ts_client.mjs [--timeout MS] (URL | stdio CMD [ARGS...])';

function parseArgs(argv) {
  const out = { timeout: 30000, target: [] };
  let i = 0;
  while (i < argv.length && out.target.length === 0) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      console.log(USAGE);
      console.log('Drives an MCP server with @modelcontextprotocol/sdk 1.32.2 (legacy handshake).');
      process.exit(0);
    } else if (a === '--timeout') {
      out.timeout = Number(argv[i + 1]);
      if (!Number.isFinite(out.timeout) || out.timeout <= 0) usageError('--timeout needs a number of milliseconds');
      i += 2;
    } else {
      out.target = argv.slice(i);
    }
  }
  if (out.target.length === 0) usageError('a target is needed');
  if (out.target[0] === 'stdio' && out.target.length < 2) usageError('stdio needs a command');
  if (out.target[0] !== 'stdio' && out.target.length !== 1) usageError(`one URL expected, got ${out.target.join(' ')}`);
  return out;
}

function usageError(msg) {
  console.error(`${USAGE}\n${msg}`);
  process.exit(2);
}

class CheckFailed extends Error {
  constructor(name, why) {
    super(`${name}: ${why}`);
    this.check = name;
    this.why = why;
  }
}

const ok = (name) => console.log(`ok: ${name}`);
function require_(name, cond, why) {
  if (!cond) throw new CheckFailed(name, why);
}
const texts = (content) => (content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What this client answers when an elicitation asks for one of these fields (any
// other field gets fillSchema's value), so a tool's result shows the answer arrived.
const AUDIENCE = 'the interop board';
const ELICIT_ANSWERS = { audience: AUDIENCE };
const TASK_TTL_MS = 60000;

// A value of the right type per property of a flat elicitation schema.
function fillSchema(schema) {
  const out = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    if ('default' in prop) out[key] = prop.default;
    else if (prop.enum?.length) out[key] = prop.enum[0];
    else if (prop.oneOf?.length) out[key] = prop.oneOf[0].const;
    else if (prop.type === 'boolean') out[key] = true;
    else if (prop.type === 'integer') out[key] = 1;
    else if (prop.type === 'number') out[key] = 1.5;
    else if (prop.type === 'array') {
      const choices = prop.items?.enum ?? (prop.items?.anyOf ?? []).map((o) => o.const);
      out[key] = choices.slice(0, 1);
    } else if (prop.format === 'email' || key.includes('email')) out[key] = 'test@example.com';
    else out[key] = key.includes('user') ? 'testuser' : 'test';
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const [{ Client }, types] = await Promise.all([
    import(sdkModuleUrl('client/index.js')),
    import(sdkModuleUrl('types.js')),
  ]);

  let transport;
  const isHttp = args.target[0] !== 'stdio';
  if (isHttp) {
    const { StreamableHTTPClientTransport } = await import(sdkModuleUrl('client/streamableHttp.js'));
    transport = new StreamableHTTPClientTransport(new URL(args.target[0]));
  } else {
    const { StdioClientTransport } = await import(sdkModuleUrl('client/stdio.js'));
    transport = new StdioClientTransport({ command: args.target[1], args: args.target.slice(2), stderr: 'inherit' });
  }
  console.log(`typescript sdk client, target=${args.target.join(' ')}`);

  const client = new Client(
    { name: 'mcp-interop-ts', version: '1.32.2' },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  const calls = { sampling: 0, elicitation: 0, relatedTasks: [] };
  client.setRequestHandler(types.CreateMessageRequestSchema, async (req) => {
    calls.sampling++;
    const asked = req.params.messages?.[0]?.content?.text ?? '';
    return {
      role: 'assistant',
      model: 'interop-test-model',
      stopReason: 'endTurn',
      content: { type: 'text', text: `sampled reply to: ${asked}` },
    };
  });
  client.setRequestHandler(types.ElicitRequestSchema, async (req) => {
    calls.elicitation++;
    const related = req.params._meta?.['io.modelcontextprotocol/related-task']?.taskId;
    if (related) calls.relatedTasks.push(related);
    const content = fillSchema(req.params.requestedSchema);
    for (const key of Object.keys(content)) {
      if (key in ELICIT_ANSWERS) content[key] = ELICIT_ANSWERS[key];
    }
    return { action: 'accept', content };
  });
  // Every progress notification as it arrives, before the SDK routes it. The v1 SDK runs
  // notification handlers in a microtask but response handlers at once, so when the
  // last progress notification and the result arrive in one read, it has already
  // dropped the request's onprogress handler and loses that notification. The count
  // is taken here, so a server that sends them in the right order is not blamed.
  const progressSeen = [];
  client.setNotificationHandler(types.ProgressNotificationSchema, (n) => {
    progressSeen.push(n.params);
    client._onprogress(n);
  });
  const logs = [];
  client.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => {
    logs.push({ at: Date.now(), params: n.params });
  });

  const opts = { timeout: args.timeout };
  let step = 'connect';
  try {
    await client.connect(transport, opts);
    ok('connect');

    step = 'protocol-version';
    if (isHttp) {
      const v = transport.protocolVersion;
      require_(step, v === '2025-11-25', `negotiated ${JSON.stringify(v)}, expected "2025-11-25"`);
      ok(`${step} ${v}`);
    } else {
      console.log('skip: protocol-version (stdio transport does not expose it)');
    }

    step = 'tools/list';
    const tools = [];
    let cursor;
    for (let page = 0; page < 100; page++) {
      const r = await client.listTools(cursor ? { cursor } : undefined, opts);
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    const names = tools.map((t) => t.name);
    require_(step, names.includes('test_simple_text'), `test_simple_text missing from ${JSON.stringify(names)}`);
    const undescribed = tools.filter((t) => !(t.description ?? '').trim()).map((t) => t.name);
    require_(step, undescribed.length === 0, `tools without a description: ${JSON.stringify(undescribed)}`);
    ok(`${step} (${tools.length} tools)`);

    step = 'tools/call test_simple_text';
    let r = await client.callTool({ name: 'test_simple_text', arguments: {} }, undefined, opts);
    require_(step, !r.isError, `isError result: ${JSON.stringify(r.content)}`);
    require_(step, texts(r.content).some((t) => t.trim()), `no text content: ${JSON.stringify(r.content)}`);
    ok(step);

    step = 'tools/call test_tool_with_progress';
    const viaSdk = [];
    const before = progressSeen.length;
    r = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      ...opts,
      onprogress: (p) => viaSdk.push(p.progress),
    });
    await sleep(50); // let queued notification handlers run
    require_(step, !r.isError, `isError result: ${JSON.stringify(r.content)}`);
    const seen = progressSeen.slice(before).map((p) => p.progress);
    require_(step, viaSdk.length >= 1, 'onprogress was never called');
    require_(step, seen.length >= 3, `${seen.length} progress notifications, expected >= 3: ${JSON.stringify(seen)}`);
    require_(step, seen.every((p, i) => i === 0 || seen[i - 1] <= p), `progress decreases: ${JSON.stringify(seen)}`);
    const dropped = seen.length - viaSdk.length;
    ok(`${step} (${seen.length} notifications${dropped > 0 ? `, ${dropped} arrived with the result, after the SDK's onprogress was gone` : ''})`);

    step = 'tools/call test_sampling';
    r = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hello' } }, undefined, opts);
    require_(step, calls.sampling >= 1, 'the sampling handler was never invoked');
    require_(step, !r.isError, `isError result: ${JSON.stringify(r.content)}`);
    require_(step, texts(r.content).some((t) => t.trim()), `empty result: ${JSON.stringify(r.content)}`);
    ok(step);

    step = 'tools/call test_elicitation';
    r = await client.callTool(
      { name: 'test_elicitation', arguments: { message: 'Please give your details' } },
      undefined,
      opts,
    );
    require_(step, calls.elicitation >= 1, 'the elicitation handler was never invoked');
    require_(step, !r.isError, `isError result: ${JSON.stringify(r.content)}`);
    require_(step, texts(r.content).some((t) => t.trim()), `empty result: ${JSON.stringify(r.content)}`);
    ok(step);

    step = 'logging/setLevel debug';
    await client.setLoggingLevel('debug', opts);
    ok(step);

    step = 'tools/call test_tool_with_logging';
    const since = Date.now();
    r = await client.callTool({ name: 'test_tool_with_logging', arguments: {} }, undefined, opts);
    await sleep(200); // notifications may trail the result a little
    require_(step, !r.isError, `isError result: ${JSON.stringify(r.content)}`);
    const during = logs.filter((l) => l.at >= since);
    require_(step, during.length >= 3, `${during.length} log notifications, expected >= 3`);
    ok(`${step} (${during.length} log messages)`);

    // Core tasks (2025-11-25), with the SDK's experimental tasks API.
    const taskApi = client.experimental.tasks;

    step = 'tasks: capabilities';
    const taskCaps = client.getServerCapabilities()?.tasks;
    require_(step, !!taskCaps?.requests?.tools?.call, `capabilities.tasks.requests.tools.call missing: ${JSON.stringify(taskCaps)}`);
    require_(step, !!taskCaps.cancel && !!taskCaps.list, `capabilities.tasks lacks cancel or list: ${JSON.stringify(taskCaps)}`);
    const taskSupport = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    for (const name of ['long_report', 'slow_compute']) {
      require_(step, ['optional', 'required'].includes(taskSupport[name]), `${name} has execution.taskSupport ${JSON.stringify(taskSupport[name])}`);
    }
    ok(`${step} (long_report: ${taskSupport.long_report}, slow_compute: ${taskSupport.slow_compute})`);

    step = 'tasks: long_report as a task, elicitation via tasks/result';
    const elicitedBefore = calls.elicitation;
    const reportStatuses = [];
    let reportTask;
    let reportResult;
    for await (const m of taskApi.callToolStream({ name: 'long_report', arguments: { sections: 2 } }, undefined, {
      ...opts,
      task: { ttl: TASK_TTL_MS },
    })) {
      if (m.type === 'taskCreated') reportTask = m.task;
      else if (m.type === 'taskStatus') reportStatuses.push(m.task.status);
      else if (m.type === 'result') reportResult = m.result;
      else if (m.type === 'error') throw new CheckFailed(step, `the task stream ended with an error: ${m.error?.message ?? m.error}`);
    }
    require_(step, !!reportTask?.taskId, 'no taskCreated: the call did not run as a task');
    require_(step, calls.elicitation > elicitedBefore, 'the elicitation handler was never invoked');
    require_(step, calls.relatedTasks.includes(reportTask.taskId), 'the task\'s elicitation did not name its task in _meta["io.modelcontextprotocol/related-task"]');
    require_(step, !!reportResult && !reportResult.isError, `no result, or an isError one: ${JSON.stringify(reportResult)}`);
    const wantReport = `A report of 2 sections for ${AUDIENCE}`;
    require_(step, texts(reportResult.content).includes(wantReport), `expected text ${JSON.stringify(wantReport)}, got ${JSON.stringify(reportResult.content)}`);
    const reportFinal = await taskApi.getTask(reportTask.taskId, opts);
    require_(step, reportFinal.status === 'completed', `tasks/get after the result says ${JSON.stringify(reportFinal.status)}, expected "completed"`);
    const seenStatuses = [...new Set([reportTask.status, ...reportStatuses, reportFinal.status])];
    ok(`${step} (${seenStatuses.join(' -> ')}, ${calls.elicitation - elicitedBefore} elicitation)`);

    step = 'tasks: slow_compute as a task, tasks/cancel';
    let computeTask;
    let cancelResult;
    let computeEnd;
    for await (const m of taskApi.callToolStream({ name: 'slow_compute', arguments: { seconds: 60, label: 'interop-cancel' } }, undefined, {
      ...opts,
      task: { ttl: TASK_TTL_MS },
    })) {
      if (m.type === 'taskCreated') {
        computeTask = m.task;
        cancelResult = await taskApi.cancelTask(m.task.taskId, opts);
        require_(step, cancelResult.status === 'cancelled', `tasks/cancel answered status ${JSON.stringify(cancelResult.status)}, expected "cancelled"`);
      } else if (m.type === 'taskStatus') {
        // A cancelled task must stay cancelled; anything else would have the SDK poll on for a minute.
        require_(step, m.task.status === 'cancelled', `tasks/get after tasks/cancel says ${JSON.stringify(m.task.status)}, expected "cancelled"`);
      } else {
        computeEnd = m;
      }
    }
    require_(step, !!computeTask?.taskId, 'no taskCreated: the call did not run as a task');
    require_(step, computeEnd?.type === 'error' && /cancelled/.test(computeEnd.error?.message ?? ''), `the task stream ended with ${computeEnd?.type === 'result' ? `a result: ${JSON.stringify(computeEnd.result)}` : `${JSON.stringify(computeEnd?.error?.message)}`}, expected the SDK's "cancelled" error`);
    const computeFinal = await taskApi.getTask(computeTask.taskId, opts);
    require_(step, computeFinal.status === 'cancelled', `tasks/get says ${JSON.stringify(computeFinal.status)}, expected "cancelled"`);
    ok(step);

    step = 'tasks: tasks/list';
    const listed = new Map();
    let taskCursor;
    for (let page = 0; page < 100; page++) {
      const r = await taskApi.listTasks(taskCursor, opts);
      for (const t of r.tasks) listed.set(t.taskId, t.status);
      taskCursor = r.nextCursor;
      if (!taskCursor) break;
    }
    for (const [id, want] of [[reportTask.taskId, 'completed'], [computeTask.taskId, 'cancelled']]) {
      require_(step, listed.get(id) === want, `task ${id} is listed as ${JSON.stringify(listed.get(id))}, expected "${want}"`);
    }
    ok(`${step} (${listed.size} tasks)`);

    step = 'resources/read test://template/42/data';
    const rr = await client.readResource({ uri: 'test://template/42/data' }, opts);
    const body = (rr.contents ?? []).map((c) => c.text ?? '').join(' ');
    require_(step, (rr.contents ?? []).length > 0, 'no contents');
    require_(step, body.includes('42'), `'42' not in the text: ${JSON.stringify(body)}`);
    ok(step);

    step = 'MCP Apps: the sales chart View';
    const VIEW = 'ui://mcp-demo/sales-chart';
    const VIEW_MIME = 'text/html;profile=mcp-app';
    const salesTool = tools.find((t) => t.name === 'sales_by_region');
    require_(step, salesTool, 'sales_by_region is not listed');
    require_(step, salesTool._meta?.ui?.resourceUri === VIEW, `its _meta is ${JSON.stringify(salesTool._meta)}`);
    require_(step, !('ui/resourceUri' in (salesTool._meta ?? {})), 'the deprecated flat key is sent');
    const resources = [];
    let resourceCursor;
    for (let page = 0; page < 100; page++) {
      const r = await client.listResources(resourceCursor ? { cursor: resourceCursor } : undefined, opts);
      resources.push(...r.resources);
      resourceCursor = r.nextCursor;
      if (!resourceCursor) break;
    }
    const listedView = resources.find((x) => x.uri === VIEW);
    require_(step, listedView?.mimeType === VIEW_MIME, `listed as ${JSON.stringify(listedView)}`);
    const view = await client.readResource({ uri: VIEW }, opts);
    const page = view.contents?.[0];
    require_(step, page?.mimeType === VIEW_MIME, `read as ${JSON.stringify(page?.mimeType)}`);
    require_(step, (page?.text ?? '').startsWith('<!DOCTYPE html>'), 'the View is not an HTML document');
    require_(step, (page?.text ?? '').includes('ui/initialize'), 'the View does not speak the host protocol');
    const sales = await client.callTool({ name: 'sales_by_region', arguments: { quarter: 'Q1' } }, undefined, opts);
    require_(step, !sales.isError && sales.structuredContent?.bars?.length === 4, `result ${JSON.stringify(sales)}`);
    ok(step);

    step = 'prompts/get test_prompt_with_arguments';
    const gp = await client.getPrompt(
      { name: 'test_prompt_with_arguments', arguments: { arg1: 'first-value', arg2: 'second-value' } },
      opts,
    );
    const said = (gp.messages ?? []).map((m) => m.content?.text ?? '').join(' ');
    require_(step, said.includes('first-value') && said.includes('second-value'), `arguments not in the prompt: ${JSON.stringify(said)}`);
    ok(step);

    step = 'completion/complete arg1';
    const cr = await client.complete(
      { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'a' } },
      opts,
    );
    require_(step, Array.isArray(cr.completion?.values), `values is not an array: ${JSON.stringify(cr.completion)}`);
    ok(`${step} (${cr.completion.values.length} values)`);

    if (isHttp) {
      step = 'terminateSession (DELETE)';
      await transport.terminateSession();
      ok(step);
    }
    step = 'close';
    await client.close();
    ok(step);
  } catch (e) {
    const failure = e instanceof CheckFailed ? e : new CheckFailed(step, `${e?.name ?? 'Error'}: ${e?.message ?? e}`);
    console.error(`FAIL: ${failure.check}: ${failure.why}`);
    await client.close().catch(() => {});
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`FAIL: setup: ${e?.stack ?? e}`);
  process.exit(1);
});
