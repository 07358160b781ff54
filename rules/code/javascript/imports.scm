; Where names come from other files of the code (JavaScript, TypeScript,
; TSX): `import { f } from './lib'`, `import { f as g }`, `import * as m`,
; `import lib from`, re-exports (`export { handler } from './impl'`,
; `export * from './impl'`), and `require('./lib')` bound whole, picked
; apart (`const { f } = require(...)`) or by one name
; (`exports.handler = require('./impl').handler`).
; Captures: @es_import, @es_export (the statement): the module, the names
; imported and what they are bound to are read from its own fields
; (crates/code/src/imports.rs): spelt out here, the shapes cost the query
; compiler 6 ms for JavaScript, 18 for TypeScript.
(import_statement) @es_import
(export_statement) @es_export
; `require("./lib")`, matched as the call (@required): the module it names
; (`fields::required_module`) and what it binds
; (`const lib = ...`, `const { f, g: h } = ...`, `const h = ....g`,
; `exports.h = ....g`, `module.exports = ...`) is read from where the call
; stands (crates/code/src/imports.rs): the same shapes spelt out here cost
; the query compiler 15 ms for JavaScript, 30 for TypeScript.
((call_expression) @required
  (#match? @required "^require\\s*\\("))
