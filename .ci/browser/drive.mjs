#!/usr/bin/env node
// drive.mjs URL OUTDIR: renders mcp-demo's sales chart View in a real browser.
//
//  1. As an MCP client (the TS SDK, Streamable HTTP at URL): lists the tools,
//     finds `sales_by_region` and its `_meta.ui.resourceUri`, reads that
//     resource (MIME type text/html;profile=mcp-app) and calls the tool.
//  2. Bundles the host page's script (host/host.js, which uses the official
//     AppBridge of @modelcontextprotocol/ext-apps) with esbuild into a
//     temporary directory.
//  3. In headless Chromium (/usr/bin/chromium, or $CHROMIUM): the host page
//     puts the View into a sandboxed iframe via `srcdoc`; the bridge answers
//     the View's `ui/initialize`; the tool input and then the tool result go
//     through the bridge; the View's DOM must show the title and one bar per
//     region with the right label and value. Saves OUTDIR/sales-chart.png.
//  4. Sends a result without structuredContent (the View falls back to the
//     text) and `ui/resource-teardown` (the View answers).
//
// Exits 0 when every check passes, 1 with a message naming the failed step
// otherwise. Every wait is bounded; the whole run is capped by a watchdog.

import { mkdtemp, mkdir, rm, writeFile, copyFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as esbuild from "esbuild";
import { chromium } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const TOOL = "sales_by_region";
const UI_MIME_TYPE = "text/html;profile=mcp-app";
const EXPECTED = {
  title: "Sales by region, Q3",
  unit: "k$",
  bars: [
    { label: "North", value: 120 },
    { label: "South", value: 95 },
    { label: "East", value: 143 },
    { label: "West", value: 88 },
  ],
};
const REQUEST_TIMEOUT_MS = 15_000;
const BROWSER_TIMEOUT_MS = 20_000;
const WATCHDOG_MS = 120_000;

const [url, outDirArg] = process.argv.slice(2);
if (!url || !outDirArg) {
  console.error("usage: node drive.mjs URL OUTDIR   (URL: the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp)");
  process.exit(2);
}
const outDir = resolve(outDirArg);
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

const started = Date.now();
let currentStep = "starting";
const log = (text) => console.log(`[drive ${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);

class CheckFailed extends Error {}
function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}
const json = (value) => JSON.stringify(value);
async function step(name, body) {
  currentStep = name;
  log(name);
  return body();
}

const watchdog = setTimeout(() => {
  console.error(`drive.mjs: FAILED: timed out after ${WATCHDOG_MS / 1000} s during: ${currentStep}`);
  process.exit(1); // playwright-core ends the browser it launched on exit
}, WATCHDOG_MS);

const cleanups = [];
let mcp;
let context;
const viewErrors = [];

try {
  await mkdir(outDir, { recursive: true });
  const work = await mkdtemp(join(tmpdir(), "mcp-demo-browser-"));
  cleanups.push(() => rm(work, { recursive: true, force: true }));

  // ---- 1. The server side, as a host's MCP client sees it -------------------
  const { tool, resourceUri } = await step(`connecting to ${url} and listing tools`, async () => {
    mcp = new Client(
      { name: "mcp-demo-browser-test", version: "0.1.0" },
      { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [UI_MIME_TYPE] } } } },
    );
    await mcp.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: REQUEST_TIMEOUT_MS });
    const { tools } = await mcp.listTools({}, { timeout: REQUEST_TIMEOUT_MS });
    const tool = tools.find((t) => t.name === TOOL);
    check(tool, `tools/list has no tool named ${TOOL} (tools: ${tools.map((t) => t.name).join(", ")})`);
    const resourceUri = tool._meta?.ui?.resourceUri;
    check(
      typeof resourceUri === "string" && resourceUri.startsWith("ui://"),
      `${TOOL} carries no _meta.ui.resourceUri starting with ui:// (its _meta: ${json(tool._meta)})`,
    );
    return { tool, resourceUri };
  });

  const html = await step(`reading the View ${resourceUri}`, async () => {
    const { contents } = await mcp.readResource({ uri: resourceUri }, { timeout: REQUEST_TIMEOUT_MS });
    check(Array.isArray(contents) && contents.length === 1, `resources/read returned ${contents?.length} contents, expected 1`);
    const [content] = contents;
    check(content.uri === resourceUri, `the content's uri is ${content.uri}, expected ${resourceUri}`);
    check(content.mimeType === UI_MIME_TYPE, `the View's MIME type is ${json(content.mimeType)}, expected ${json(UI_MIME_TYPE)}`);
    const text = typeof content.text === "string" ? content.text : Buffer.from(content.blob ?? "", "base64").toString("utf8");
    check(/^\s*<!DOCTYPE html>/i.test(text), `the View is not an HTML5 document: ${json(text.slice(0, 80))}`);
    return text;
  });

  const result = await step(`calling ${TOOL} for Q3`, async () => {
    const result = await mcp.callTool({ name: TOOL, arguments: { quarter: "Q3" } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
    check(!result.isError, `${TOOL} failed: ${json(result.content)}`);
    check(json(result.structuredContent) === json(EXPECTED), `structuredContent is ${json(result.structuredContent)}, expected ${json(EXPECTED)}`);
    const text = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
    for (const { label, value } of EXPECTED.bars) {
      check(text.includes(`${label} ${value}`), `the text content does not say "${label} ${value}": ${json(text)}`);
    }
    return result;
  });

  // ---- 2. The host page, with the official bridge bundled -------------------
  const hostPage = await step("bundling the ext-apps host bridge with esbuild", async () => {
    await esbuild.build({
      entryPoints: [join(HERE, "host", "host.js")],
      outfile: join(work, "host.js"),
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "chrome120",
      logLevel: "error",
    });
    await copyFile(join(HERE, "host", "index.html"), join(work, "index.html"));
    return pathToFileURL(join(work, "index.html")).href;
  });

  // ---- 3. Chromium ------------------------------------------------------------
  const page = await step(`launching ${chromiumPath}`, async () => {
    context = await chromium.launchPersistentContext(join(work, "profile"), {
      executablePath: chromiumPath,
      headless: true,
      timeout: BROWSER_TIMEOUT_MS,
      viewport: { width: 800, height: 600 },
      deviceScaleFactor: 1,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--allow-file-access-from-files",
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(BROWSER_TIMEOUT_MS);
    page.on("pageerror", (error) => viewErrors.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") viewErrors.push(`console error: ${message.text()}`);
    });
    await page.goto(hostPage, { waitUntil: "load" });
    check(await page.evaluate(() => typeof window.testHost === "object"), "the host page did not load its bridge bundle");
    return page;
  });

  const appInfo = await step("mounting the View; waiting for ui/initialize and ui/notifications/initialized", async () => {
    const hostContext = {
      theme: "light",
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      containerDimensions: { width: 640, maxHeight: 800 },
      locale: "en-US",
      platform: "web",
      toolInfo: { tool },
    };
    const { appInfo } = await withTimeout(
      page.evaluate(({ html, hostContext }) => window.testHost.mount(html, hostContext), { html, hostContext }),
      BROWSER_TIMEOUT_MS,
      "the View never completed the ui/initialize handshake",
    );
    check(appInfo && typeof appInfo.name === "string", `the View sent no appInfo in ui/initialize: ${json(appInfo)}`);
    return appInfo;
  });
  log(`the View is ${appInfo.name} ${appInfo.version}`);

  const frame = await step("finding the View's frame", async () => {
    const handle = await page.waitForSelector("iframe");
    const frame = await handle.contentFrame();
    check(frame, "the iframe has no frame");
    return frame;
  });

  await step("sending the tool input; the View shows that it loads Q3", async () => {
    await page.evaluate(() => window.testHost.sendToolInput({ quarter: "Q3" }));
    await frame.waitForFunction(() => /Loading Q3/.test(document.body.innerText), undefined, { timeout: BROWSER_TIMEOUT_MS })
      .catch(async () => {
        throw new CheckFailed(`the View does not say "Loading Q3" after the tool input; it shows: ${json(await frame.evaluate(() => document.body.innerText))}`);
      });
  });

  await step("sending the tool result; the View draws the chart", async () => {
    await page.evaluate((result) => window.testHost.sendToolResult(result), result);
    await frame.waitForFunction((n) => document.querySelectorAll("[data-label][data-value]").length === n, EXPECTED.bars.length, { timeout: BROWSER_TIMEOUT_MS })
      .catch(async () => {
        throw new CheckFailed(`the View did not draw ${EXPECTED.bars.length} bars ([data-label][data-value]); it shows: ${json(await frame.evaluate(() => document.body.innerText))}`);
      });
    const seen = await frame.evaluate(() => ({
      title: document.querySelector("h1")?.textContent?.trim(),
      text: document.body.innerText,
      bars: [...document.querySelectorAll("[data-label][data-value]")].map((bar) => {
        const fill = bar.querySelector(".fill") ?? bar;
        return {
          label: bar.getAttribute("data-label"),
          value: Number(bar.getAttribute("data-value")),
          text: bar.innerText,
          height: fill.getBoundingClientRect().height,
        };
      }),
    }));
    check(seen.title === EXPECTED.title, `the View's title is ${json(seen.title)}, expected ${json(EXPECTED.title)}`);
    const labelsAndValues = seen.bars.map(({ label, value }) => ({ label, value }));
    check(json(labelsAndValues) === json(EXPECTED.bars), `the View's bars are ${json(labelsAndValues)}, expected ${json(EXPECTED.bars)}`);
    for (const bar of seen.bars) {
      check(seen.text.includes(bar.label), `the View does not show the label ${bar.label}`);
      check(bar.text.includes(String(bar.value)), `the bar ${bar.label} does not show its value ${bar.value}: ${json(bar.text)}`);
      check(bar.height > 0, `the bar ${bar.label} has no height`);
    }
    const byHeight = [...seen.bars].sort((a, b) => a.height - b.height).map((b) => b.label);
    const byValue = [...seen.bars].sort((a, b) => a.value - b.value).map((b) => b.label);
    check(json(byHeight) === json(byValue), `the bars' heights are not in the order of their values: ${json(seen.bars)}`);
    // One scale for all bars: each bar's height is its value times the same
    // number of pixels, within a pixel or two of rounding.
    const scale = seen.bars[0].height / seen.bars[0].value;
    for (const bar of seen.bars) {
      check(Math.abs(bar.height - bar.value * scale) <= 2, `the bar ${bar.label} is ${bar.height} px high, not ${bar.value} × ${scale.toFixed(3)} px: ${json(seen.bars)}`);
    }
    log(`bars: ${seen.bars.map((b) => `${b.label}=${b.value} (${Math.round(b.height)} px)`).join(", ")}`);
  });

  await step("waiting for the View's size to settle and saving the screenshot", async () => {
    // The View reports its size with ui/notifications/size-changed; the host
    // page sets the iframe's height from it.
    await page.waitForFunction(() => window.testHost.events.some((e) => e.kind === "size-changed" && e.detail.height > 0), undefined, { timeout: BROWSER_TIMEOUT_MS })
      .catch(() => { throw new CheckFailed("the View never sent ui/notifications/size-changed"); });
    await new Promise((resolve) => setTimeout(resolve, 500)); // the bars' height transition
    const iframe = await page.$("iframe");
    const file = join(outDir, "sales-chart.png");
    await iframe.screenshot({ path: file });
    const { size } = await stat(file);
    check(size > 1000, `the screenshot ${file} is only ${size} bytes`);
    log(`screenshot: ${file} (${size} bytes)`);
  });

  await step("sending a result without structuredContent; the View shows its text", async () => {
    const text = "Sales by region, Q3: North 120, South 95, East 143, West 88 (total 446 k$)";
    await page.evaluate((result) => window.testHost.sendToolResult(result), { content: [{ type: "text", text }] });
    await frame.waitForFunction((t) => document.body.innerText.includes(t) && !document.querySelector("[data-label]"), text, { timeout: BROWSER_TIMEOUT_MS })
      .catch(async () => {
        throw new CheckFailed(`the View does not fall back to the text content; it shows: ${json(await frame.evaluate(() => document.body.innerText))}`);
      });
  });

  await step("ui/resource-teardown: the View answers", async () => {
    await withTimeout(page.evaluate(() => window.testHost.teardown()), BROWSER_TIMEOUT_MS, "the View did not answer ui/resource-teardown");
  });

  const bridgeErrors = await page.evaluate(() => window.testHost.events.filter((e) => e.kind === "bridge-error"));
  check(bridgeErrors.length === 0, `the ext-apps bridge reported errors: ${json(bridgeErrors)}`);
  check(viewErrors.length === 0, `the browser reported errors:\n  ${viewErrors.join("\n  ")}`);

  log(`PASSED in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = 0;
} catch (error) {
  const reason = error instanceof CheckFailed ? error.message : (error?.stack ?? String(error));
  console.error(`drive.mjs: FAILED during "${currentStep}": ${reason}`);
  if (viewErrors.length > 0) console.error(`browser errors:\n  ${viewErrors.join("\n  ")}`);
  process.exitCode = 1;
} finally {
  await Promise.race([
    (async () => {
      await context?.close().catch(() => {});
      await mcp?.close().catch(() => {});
      for (const cleanup of cleanups) await cleanup().catch(() => {});
    })(),
    new Promise((resolve) => setTimeout(resolve, 10_000)),
  ]);
  // A browser that did not close in time is ended by playwright-core's exit
  // handler: no Chromium outlives the run.
  clearTimeout(watchdog);
  process.exit(process.exitCode ?? 1);
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new CheckFailed(`${message} (after ${ms / 1000} s)`)), ms);
    }),
  ]);
}
