// The test host's page script, bundled by drive.mjs with esbuild: it puts a
// View into a sandboxed iframe through `srcdoc` and speaks to it with the
// official host-side bridge of @modelcontextprotocol/ext-apps. The driver
// calls the functions on `window.testHost` with page.evaluate.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const events = [];
let bridge = null;
let iframe = null;

function record(kind, detail) {
  events.push({ kind, detail, at: Math.round(performance.now()) });
}

window.testHost = {
  events,

  // Mounts the View's HTML and resolves once the View has sent
  // `ui/notifications/initialized` after a successful `ui/initialize`.
  async mount(html, hostContext) {
    iframe = document.createElement("iframe");
    iframe.title = "MCP App";
    // An opaque origin, as real hosts give a View: scripts only.
    iframe.setAttribute("sandbox", "allow-scripts");
    document.getElementById("stage").append(iframe);

    bridge = new AppBridge(
      null,
      { name: "mcp-demo-browser-test", version: "0.1.0" },
      {},
      { hostContext },
    );
    const initialized = new Promise((resolve) => {
      bridge.oninitialized = () => {
        record("initialized");
        resolve({ appInfo: bridge.getAppVersion(), appCapabilities: bridge.getAppCapabilities() });
      };
    });
    bridge.onsizechange = ({ width, height }) => {
      record("size-changed", { width, height });
      if (typeof height === "number" && height > 0) iframe.style.height = height + "px";
    };
    bridge.onloggingmessage = (params) => record("log", params);
    bridge.onerror = (error) => record("bridge-error", String(error && error.message || error));

    // Listen before the View's script runs: it sends `ui/initialize` at once.
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.srcdoc = html;
    return initialized;
  },

  sendToolInput(args) {
    return bridge.sendToolInput({ arguments: args });
  },

  sendToolResult(result) {
    return bridge.sendToolResult(result);
  },

  teardown() {
    return bridge.teardownResource({});
  },
};
