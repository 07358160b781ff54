; Function and method definitions, with their decorators, and
; `handler = some_function` or `handler = wrapper(some_function)` at the
; module's top level: a name a template may name as the handler.
; Captures: @definition (the whole definition); its name is read from its
; own fields (`fields::defined_name`: the function's name, the decorated
; function's, the name assigned when the assignment is a statement of the
; module): spelt out here, those shapes cost the query compiler 1.6 ms.
(decorated_definition) @definition
(function_definition) @definition
(assignment) @definition
