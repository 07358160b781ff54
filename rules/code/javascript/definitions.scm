; Function and method definitions (JavaScript, TypeScript, TSX).
; Captures: @definition (the whole definition); its name is read from its
; own fields (`fields::defined_name`): spelt out here, the shapes cost the
; query compiler 1 ms (TypeScript: 5).
(function_declaration) @definition
(generator_function_declaration) @definition
; `const handler = async (event) => {...}`, `= function (...) {...}`, and
; `const handler = middy(main)`: a name a template may name as the handler.
(variable_declarator) @definition
; `exports.handler = ...`, `module.exports.handler = ...`
; (the name is the property assigned: `fields::assigned_name`)
(assignment_expression) @definition
(method_definition) @definition
