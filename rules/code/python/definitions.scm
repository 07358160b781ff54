; Function and method definitions, with their decorators.
; Captures: @definition (the whole definition), @name (its name).
(decorated_definition
  definition: (function_definition name: (identifier) @name)) @definition
(function_definition name: (identifier) @name) @definition
; `handler = some_function` and `handler = wrapper(some_function)` bind a
; name that a template may name as the handler.
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition))
