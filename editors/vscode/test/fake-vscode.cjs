// A small stand-in for the `vscode` module, which only exists inside VS Code.
// It holds what the extension and vscode-languageclient use to load, start a
// client and sync documents: configuration, commands, output channels,
// document events that tests fire, a diagnostic collection that records what
// the client publishes, and the value classes (Position, Range, Diagnostic,
// Uri). Every call the tests assert on is recorded in `__state.calls`.
// Unknown names resolve to an empty class (vscode-languageclient subclasses
// some at load time).
"use strict";

const { pathToFileURL, fileURLToPath } = require("node:url");

const state = {
  /** `utf8lint.*` settings, by key (e.g. "path", "lints"). */
  settings: {},
  workspaceFolders: undefined,
  /** What `showErrorMessage` resolves to (a button title or undefined). */
  errorChoice: undefined,
  calls: [],
  commands: new Map(),
  log: [],
  /** The open documents (`workspace.textDocuments`). */
  textDocuments: [],
  /** Diagnostics set through any diagnostic collection: uri string -> Diagnostic[]. */
  diagnostics: new Map(),
  /** Emitters the tests fire: open, change, close, save, configuration. */
  events: {},
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
    this._fn = undefined;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose()));
  }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener, thisArg) => {
      const bound = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.push(bound);
      return new Disposable(() => {
        this.listeners = this.listeners.filter((l) => l !== bound);
      });
    };
  }
  fire(e) {
    this.listeners.forEach((l) => l(e));
  }
  dispose() {
    this.listeners = [];
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === "number") {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
  get isEmpty() {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

class CodeActionKind {
  constructor(value) {
    this.value = value;
  }
  append(part) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other) {
    return this.value === other.value || other.value.startsWith(this.value + ".");
  }
  intersects(other) {
    return this.contains(other) || other.contains(this);
  }
}
CodeActionKind.Empty = new CodeActionKind("");
CodeActionKind.QuickFix = new CodeActionKind("quickfix");
CodeActionKind.Refactor = new CodeActionKind("refactor");
CodeActionKind.Source = new CodeActionKind("source");
CodeActionKind.SourceFixAll = new CodeActionKind("source.fixAll");
CodeActionKind.SourceOrganizeImports = new CodeActionKind("source.organizeImports");

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this._emitter.fire(undefined);
    }
  }
  dispose() {}
}

const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };

class Diagnostic {
  constructor(range, message, severity) {
    this.range = range;
    this.message = message;
    this.severity = severity === undefined ? DiagnosticSeverity.Error : severity;
  }
}

class Location {
  constructor(uri, range) {
    this.uri = uri;
    this.range = range;
  }
}

class DiagnosticRelatedInformation {
  constructor(location, message) {
    this.location = location;
    this.message = message;
  }
}

class Uri {
  constructor(scheme, fsPath, text) {
    this.scheme = scheme;
    this.fsPath = fsPath;
    this.path = fsPath;
    this._text = text;
  }
  toString() {
    return this._text;
  }
  toJSON() {
    return this._text;
  }
  with() {
    return this;
  }
  static file(fsPath) {
    return new Uri("file", fsPath, pathToFileURL(fsPath).href);
  }
  static parse(text) {
    const scheme = text.slice(0, text.indexOf(":"));
    return new Uri(scheme, scheme === "file" ? fileURLToPath(text) : text.slice(scheme.length + 1), text);
  }
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

/** The defaults package.json contributes, by key without `utf8lint.` ("trace.server" nested as trace.server). */
function contributedDefaults() {
  const manifest = require("../package.json");
  const out = {};
  for (const [key, schema] of Object.entries(manifest.contributes.configuration.properties)) {
    const parts = key.slice("utf8lint.".length).split(".");
    let at = out;
    for (const p of parts.slice(0, -1)) at = at[p] = at[p] || {};
    at[parts[parts.length - 1]] = schema.default;
  }
  return out;
}

function configuration(section) {
  const lookup = (key) => {
    const full = section ? `${section}.${key}` : key;
    const short = full.startsWith("utf8lint.") ? full.slice("utf8lint.".length) : undefined;
    if (short !== undefined && Object.prototype.hasOwnProperty.call(state.settings, short)) {
      return { set: true, value: state.settings[short] };
    }
    // The whole section, as VS Code returns it: defaults, then what is set.
    if (full === "utf8lint") return { set: false, value: { ...contributedDefaults(), ...state.settings } };
    const defaults = contributedDefaults();
    if (short !== undefined && Object.prototype.hasOwnProperty.call(defaults, short)) {
      return { set: false, value: defaults[short] };
    }
    return { set: false, value: undefined };
  };
  return {
    get(key, defaultValue) {
      const found = lookup(key);
      return found.value !== undefined ? found.value : defaultValue;
    },
    has(key) {
      return lookup(key).value !== undefined;
    },
    inspect(key) {
      const found = lookup(key);
      return { key: section ? `${section}.${key}` : key, globalValue: found.set ? found.value : undefined };
    },
    update() {
      return Promise.resolve();
    },
  };
}

/** A TextDocument as VS Code hands one to extensions. */
function makeDocument(uri, languageId, text, version = 1) {
  const lines = text.split(/\r\n|\r|\n/);
  return {
    uri,
    fileName: uri.fsPath,
    isUntitled: uri.scheme === "untitled",
    languageId,
    version,
    isDirty: false,
    isClosed: false,
    eol: text.includes("\r\n") ? 2 : 1,
    lineCount: lines.length,
    getText: () => text,
    save: () => Promise.resolve(true),
  };
}

function diagnosticCollection(name) {
  return {
    name,
    set(uri, diagnostics) {
      if (Array.isArray(uri)) {
        for (const [u, ds] of uri) state.diagnostics.set(u.toString(), ds ?? []);
      } else {
        state.diagnostics.set(uri.toString(), diagnostics ?? []);
      }
      state.events.diagnostics.fire(uri);
    },
    delete(uri) {
      state.diagnostics.delete(uri.toString());
      state.events.diagnostics.fire(uri);
    },
    clear() {},
    forEach() {},
    get(uri) {
      return state.diagnostics.get(uri.toString());
    },
    has(uri) {
      return state.diagnostics.has(uri.toString());
    },
    dispose() {},
  };
}

/** `languages.match`: the filters this extension uses (scheme, language). */
function match(selector, document) {
  const filters = Array.isArray(selector) ? selector : [selector];
  let score = 0;
  for (const f of filters) {
    if (typeof f === "string") {
      if (f === "*" || f === document.languageId) score = Math.max(score, f === "*" ? 5 : 10);
      continue;
    }
    if (f.scheme !== undefined && f.scheme !== "*" && f.scheme !== document.uri.scheme) continue;
    if (f.language !== undefined && f.language !== "*" && f.language !== document.languageId) continue;
    score = Math.max(score, 5);
  }
  return score;
}

for (const name of ["open", "change", "close", "save", "willSave", "configuration", "diagnostics", "folders"]) {
  state.events[name] = new EventEmitter();
}

const noop = () => new Disposable(() => {});

const known = {
  __state: state,
  __makeDocument: makeDocument,
  Disposable,
  EventEmitter,
  Position,
  Range,
  Diagnostic,
  DiagnosticRelatedInformation,
  Location,
  DiagnosticSeverity,
  CodeActionKind,
  CancellationTokenSource,
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  Uri,
  version: "1.91.0",
  env: { language: "en", appName: "Visual Studio Code", machineId: "test", uiKind: 1, openExternal: () => Promise.resolve(true) },
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
    withProgress(_options, task) {
      return task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: noop });
    },
    activeTextEditor: undefined,
    visibleTextEditors: [],
    tabGroups: { all: [], onDidChangeTabs: noop, onDidChangeTabGroups: noop },
  },
  workspace: {
    getConfiguration(section) {
      return configuration(section);
    },
    get workspaceFolders() {
      return state.workspaceFolders;
    },
    get textDocuments() {
      return state.textDocuments;
    },
    notebookDocuments: [],
    onDidOpenTextDocument: state.events.open.event,
    onDidChangeTextDocument: state.events.change.event,
    onDidCloseTextDocument: state.events.close.event,
    onDidSaveTextDocument: state.events.save.event,
    onWillSaveTextDocument: state.events.willSave.event,
    onDidChangeWorkspaceFolders: state.events.folders.event,
    onDidChangeConfiguration(listener) {
      state.onDidChangeConfiguration = listener;
      return state.events.configuration.event(listener);
    },
    createFileSystemWatcher() {
      return { onDidCreate: noop, onDidChange: noop, onDidDelete: noop, dispose() {} };
    },
    getWorkspaceFolder() {
      return state.workspaceFolders && state.workspaceFolders[0];
    },
    applyEdit() {
      return Promise.resolve(true);
    },
  },
  languages: {
    match,
    createDiagnosticCollection: diagnosticCollection,
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
  extensions: { getExtension: () => undefined, all: [] },
};

// Events the client subscribes to and registrations it makes that these tests
// do not drive (`onDidChangeActiveTextEditor`, `registerHoverProvider`, ...):
// no-ops that return a Disposable.
function withNoops(object) {
  return new Proxy(object, {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (typeof prop === "string" && /^(on(Did|Will)|register)/.test(prop)) return noop;
      return undefined;
    },
  });
}
known.workspace = withNoops(known.workspace);
known.window = withNoops(known.window);
known.languages = withNoops(known.languages);
known.notebooks = withNoops({});

// Classes and enums vscode-languageclient references; it subclasses some of
// them when it loads, and its `__importStar` copies only own properties.
for (const name of [
  "CallHierarchyItem", "CancellationError", "CodeAction", "CodeLens", "CompletionItem",
  "DocumentLink", "InlayHint", "LogLevel", "RelativePattern", "SymbolInformation", "TypeHierarchyItem",
  "WorkspaceEdit", "TextEdit", "MarkdownString", "Location", "ProgressLocation",
  "TabInputText",
]) {
  if (!(name in known)) known[name] = class {};
}

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
