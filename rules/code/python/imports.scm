; Where names come from other files of the code: `from pkg.mod import f`,
; `from .mod import f as g`, `from . import mod`, `from pkg import *`,
; `import pkg.mod`, `import pkg.mod as m`.
; Captures: @from_import, @module_import (the statement): the module, the
; names imported and what they are bound to are read from its own fields
; (crates/code/src/imports.rs): spelt out here, the shapes cost the query
; compiler 1.5 ms.
(import_from_statement) @from_import
(import_statement) @module_import
