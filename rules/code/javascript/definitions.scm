; Function and method definitions (JavaScript, TypeScript, TSX).
; Captures: @definition (the whole definition), @name (its name).
(function_declaration name: (identifier) @name) @definition
(generator_function_declaration name: (identifier) @name) @definition
; `const handler = async (event) => {...}`, `= function (...) {...}`, and
; `const handler = middy(main)`: a name a template may name as the handler.
(variable_declarator name: (identifier) @name) @definition
; `exports.handler = ...`, `module.exports.handler = ...`
; (the name is the property assigned: `fields::assigned_name`; spelt out
; here, the shape costs the query compiler 1.6 ms)
(assignment_expression) @definition
(method_definition name: (property_identifier) @name) @definition
