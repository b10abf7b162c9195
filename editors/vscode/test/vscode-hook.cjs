// Loaded with `node --require`: makes `require("vscode")` return the fake in
// ./fake-vscode.cjs, since the real module only exists inside VS Code.
"use strict";
const Module = require("node:module");
const path = require("node:path");

const fake = path.join(__dirname, "fake-vscode.cjs");
const original = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "vscode") return fake;
  return original.call(this, request, ...rest);
};
