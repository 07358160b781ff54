; Method definitions (a handler is a class's `handleRequest` or the method
; a template names after `::`).
; Captures: @definition (the whole definition), @name (its name).
(method_declaration name: (identifier) @name) @definition
