; Where names come from other files of the code (JavaScript, TypeScript,
; TSX): `import { f } from './lib'`, `import { f as g }`, `import * as m`,
; `import lib from`, re-exports (`export { handler } from './impl'`,
; `export * from './impl'`), and `require('./lib')` bound whole, picked
; apart (`const { f } = require(...)`) or by one name
; (`exports.handler = require('./impl').handler`).
; Captures: @source (the module as written), @name (the name imported),
; @alias (the name it is bound to, when renamed), @namespace (a name bound
; to the whole module), @star (every name of the module, re-exported).
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @name !alias)))
  source: (string (string_fragment) @source))
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @name alias: (identifier) @alias)))
  source: (string (string_fragment) @source))
(import_statement
  (import_clause (namespace_import (identifier) @namespace))
  source: (string (string_fragment) @source))
(import_statement
  (import_clause (identifier) @namespace)
  source: (string (string_fragment) @source))
(export_statement
  (export_clause (export_specifier name: (identifier) @name !alias))
  source: (string (string_fragment) @source))
(export_statement
  (export_clause (export_specifier name: (identifier) @name alias: (identifier) @alias))
  source: (string (string_fragment) @source))
(export_statement
  "*" @star
  source: (string (string_fragment) @source))
((variable_declarator
   name: (identifier) @namespace
   value: (call_expression
     function: (identifier) @require
     arguments: (arguments . (string (string_fragment) @source))))
  (#eq? @require "require"))
((variable_declarator
   name: (object_pattern (shorthand_property_identifier_pattern) @name)
   value: (call_expression
     function: (identifier) @require
     arguments: (arguments . (string (string_fragment) @source))))
  (#eq? @require "require"))
((variable_declarator
   name: (object_pattern (pair_pattern key: (property_identifier) @name value: (identifier) @alias))
   value: (call_expression
     function: (identifier) @require
     arguments: (arguments . (string (string_fragment) @source))))
  (#eq? @require "require"))
((variable_declarator
   name: (identifier) @alias
   value: (member_expression
     object: (call_expression
       function: (identifier) @require
       arguments: (arguments . (string (string_fragment) @source)))
     property: (property_identifier) @name))
  (#eq? @require "require"))
((assignment_expression
   left: (member_expression property: (property_identifier) @alias)
   right: (member_expression
     object: (call_expression
       function: (identifier) @require
       arguments: (arguments . (string (string_fragment) @source)))
     property: (property_identifier) @name))
  (#eq? @require "require"))
; `module.exports = require('./impl')`: every name of it.
((assignment_expression
   left: (member_expression object: (identifier) @module property: (property_identifier) @exports)
   right: (call_expression
     function: (identifier) @require
     arguments: (arguments . (string (string_fragment) @source))) @star)
  (#eq? @module "module")
  (#eq? @exports "exports")
  (#eq? @require "require"))
