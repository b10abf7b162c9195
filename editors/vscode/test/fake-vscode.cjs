// A tiny stand-in for the `vscode` module: just what the extension and
// vscode-languageclient touch while loading and activating, recording every
// call in `__calls` so tests can assert on them. Unknown names resolve to an
// empty class (vscode-languageclient subclasses some at load time).
"use strict";

const state = {
  /** `utf8lint.*` settings, by key (e.g. "path", "lints"). */
  settings: {},
  workspaceFolders: undefined,
  /** What `showErrorMessage` resolves to (a button title or undefined). */
  errorChoice: undefined,
  calls: [],
  commands: new Map(),
  log: [],
};

function record(name, args) {
  state.calls.push({ name, args });
}

class Disposable {
  constructor(fn) {
    this._fn = fn;
  }
  dispose() {
    if (this._fn) this._fn();
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose()));
  }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return new Disposable(() => {});
    };
  }
  fire(e) {
    this.listeners.forEach((l) => l(e));
  }
  dispose() {}
}

function logChannel(name) {
  const log = (level) => (message) => state.log.push({ channel: name, level, message: String(message) });
  return {
    name,
    logLevel: 2,
    onDidChangeLogLevel: () => new Disposable(() => {}),
    trace: log("trace"),
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    append: log("append"),
    appendLine: log("appendLine"),
    replace() {},
    clear() {},
    show() {
      record("output.show", [name]);
    },
    hide() {},
    dispose() {},
  };
}

function configuration(section) {
  return {
    get(key, defaultValue) {
      const full = section ? `${section}.${key}` : key;
      const short = full.startsWith("utf8lint.") ? full.slice("utf8lint.".length) : undefined;
      if (short !== undefined && Object.prototype.hasOwnProperty.call(state.settings, short)) {
        return state.settings[short];
      }
      return defaultValue;
    },
    has(key) {
      return Object.prototype.hasOwnProperty.call(state.settings, key);
    },
    inspect(key) {
      const full = section ? `${section}.${key}` : key;
      const short = full.startsWith("utf8lint.") ? full.slice("utf8lint.".length) : full;
      const set = Object.prototype.hasOwnProperty.call(state.settings, short);
      return { key: full, globalValue: set ? state.settings[short] : undefined };
    },
    update() {
      return Promise.resolve();
    },
  };
}

const known = {
  __state: state,
  Disposable,
  EventEmitter,
  Uri: {
    file: (fsPath) => ({ scheme: "file", fsPath, path: fsPath, toString: () => "file://" + fsPath }),
    parse: (s) => ({ scheme: s.split(":")[0], fsPath: s, path: s, toString: () => s }),
  },
  window: {
    createOutputChannel(name, options) {
      record("window.createOutputChannel", [name, options]);
      return logChannel(name);
    },
    showErrorMessage(message, ...items) {
      record("window.showErrorMessage", [message, ...items]);
      return Promise.resolve(state.errorChoice);
    },
    showWarningMessage(message, ...items) {
      record("window.showWarningMessage", [message, ...items]);
      return Promise.resolve(undefined);
    },
    showInformationMessage(message, ...items) {
      record("window.showInformationMessage", [message, ...items]);
      return Promise.resolve(undefined);
    },
  },
  workspace: {
    getConfiguration(section) {
      return configuration(section);
    },
    get workspaceFolders() {
      return state.workspaceFolders;
    },
    onDidChangeConfiguration(listener) {
      state.onDidChangeConfiguration = listener;
      return new Disposable(() => {});
    },
    textDocuments: [],
  },
  commands: {
    registerCommand(id, fn) {
      record("commands.registerCommand", [id]);
      state.commands.set(id, fn);
      return new Disposable(() => state.commands.delete(id));
    },
    executeCommand(id, ...args) {
      record("commands.executeCommand", [id, ...args]);
      return Promise.resolve(undefined);
    },
  },
  env: { language: "en", appName: "Visual Studio Code", machineId: "test" },
  version: "1.91.0",
  extensions: { getExtension: () => undefined, all: [] },
  languages: {},
};

// Classes and enums vscode-languageclient references; it subclasses some of
// them when it loads, and its `__importStar` copies only own properties.
for (const name of [
  "CallHierarchyItem", "CancellationError", "CodeAction", "CodeActionKind", "CodeLens", "CompletionItem",
  "Diagnostic", "DiagnosticSeverity", "DiagnosticTag", "DocumentLink", "InlayHint", "LogLevel", "Position",
  "Range", "RelativePattern", "SymbolInformation", "TypeHierarchyItem", "WorkspaceEdit", "TextEdit",
  "MarkdownString", "Location", "ProgressLocation", "CancellationTokenSource", "TabInputText",
]) {
  if (!(name in known)) known[name] = class {};
}

// Events the client subscribes to (`onDidOpenTextDocument`, ...): no-ops.
function withEvents(object) {
  return new Proxy(object, {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (typeof prop === "string" && /^on(Did|Will)/.test(prop)) return () => new Disposable(() => {});
      return undefined;
    },
  });
}
known.workspace = withEvents(known.workspace);
known.window = withEvents(known.window);
known.languages = withEvents(known.languages);
known.notebooks = withEvents({});

module.exports = new Proxy(known, {
  get(target, prop) {
    if (prop in target) return target[prop];
    if (typeof prop === "symbol" || prop === "then" || prop === "__esModule") return undefined;
    // An enum or a class the client only references: an empty class that is
    // also usable as an enum object.
    const stand = class {};
    target[prop] = stand;
    return stand;
  },
});
