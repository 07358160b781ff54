; Where names come from other files of the code: `from pkg.mod import f`,
; `from .mod import f as g`, `from . import mod`, `from pkg import *`,
; `import pkg.mod`, `import pkg.mod as m`.
; Captures: @source (the module as written, dots included), @name (the
; name imported), @alias (the name it is bound to, when renamed),
; @namespace (a name bound to the whole module), @star (every name).
(import_from_statement
  module_name: (_) @source
  name: (dotted_name) @name)
(import_from_statement
  module_name: (_) @source
  name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias))
(import_from_statement
  module_name: (_) @source
  (wildcard_import) @star)
(import_statement name: (dotted_name) @source @namespace)
(import_statement name: (aliased_import name: (dotted_name) @source alias: (identifier) @namespace))
