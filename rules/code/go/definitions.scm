; Function and method definitions.
; Captures: @definition (the whole definition), @name (its name).
(function_declaration name: (identifier) @name) @definition
(method_declaration name: (field_identifier) @name) @definition
