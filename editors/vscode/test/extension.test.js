// The bundle VS Code loads (dist/extension.js, `npm run bundle` makes
// it), with a stand-in for the `vscode` module: it loads with nothing but
// `vscode` outside it, and when no binary can serve, activating it shows
// one error naming what was tried and starts nothing.

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const Module = require("node:module");

const manifest = require("../package.json");

const bundle = path.join(__dirname, "..", manifest.main);

/**
 * A `vscode` module: the members given, and any other name a class
 * (enough for vscode-languageclient's classes that extend VS Code's).
 */
function fakeVscode(members) {
  return new Proxy(members, {
    get(target, key) {
      if (!(key in target)) {
        target[key] = class {};
      }
      return target[key];
    },
  });
}

/** Requires the bundle with `vscode` as `stub`; the modules it asked for from outside. */
function load(stub) {
  assert.ok(fs.existsSync(bundle), `${bundle} is missing: run npm run bundle first`);
  const original = Module._load;
  const required = [];
  Module._load = function (request, parent, isMain) {
    if (parent && parent.filename === bundle) {
      required.push(request);
    }
    return request === "vscode" ? stub : original.call(this, request, parent, isMain);
  };
  try {
    delete require.cache[bundle];
    return { extension: require(bundle), required: [...new Set(required)] };
  } finally {
    Module._load = original;
  }
}

test("the bundle loads with only `vscode` left outside it, and exports activate and deactivate", () => {
  const { extension, required } = load(fakeVscode({}));
  assert.equal(typeof extension.activate, "function");
  assert.equal(typeof extension.deactivate, "function");
  const outside = required.filter((r) => !r.startsWith("node:") && !Module.isBuiltin(r));
  assert.deepEqual(outside, ["vscode"]);
});

test("with no binary that serves, activating shows one error naming it, and a restart tries again", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqsguard-vscode-ext-"));
  const missing = path.join(dir, "no-such-sqsguard");
  const errors = [];
  const commands = new Map();
  const logged = [];
  const log = (line) => logged.push(line);
  const settings = { path: missing, select: [], ignore: [], unsafeFixes: false, varFiles: [], stage: null };
  const vscode = fakeVscode({
    window: {
      createOutputChannel: () => ({ info: log, warn: log, error: log, appendLine: log, dispose() {} }),
      showErrorMessage: async (message) => (errors.push(message), undefined),
      showInformationMessage: async () => undefined,
    },
    commands: {
      registerCommand: (id, run) => (commands.set(id, run), { dispose() {} }),
      executeCommand: async () => undefined,
    },
    workspace: {
      workspaceFolders: [{ uri: { fsPath: dir } }],
      getConfiguration: (section) => {
        assert.equal(section, "sqsguard");
        return { get: (key) => settings[key] };
      },
      onDidChangeConfiguration: () => ({ dispose() {} }),
    },
  });
  const { extension } = load(vscode);
  const context = { subscriptions: [], extensionPath: dir };
  try {
    await extension.activate(context);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /could not start the language server/);
    assert.ok(errors[0].includes(`the sqsguard.path setting (${missing}): not found`), errors[0]);
    assert.deepEqual([...commands.keys()].sort(), ["sqsguard.fixAll", "sqsguard.restart"]);
    // The commands package.json contributes are the ones registered.
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(contributed, ["sqsguard.fixAll", "sqsguard.restart"]);

    // Restart looks again: still nothing, one more error, no loop.
    await commands.get("sqsguard.restart")();
    assert.equal(errors.length, 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(errors.length, 2);
    await extension.deactivate();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
