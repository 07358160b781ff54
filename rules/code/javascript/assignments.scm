; Names bound to a value: `const QUEUE_URL = process.env.QUEUE_URL`,
; `let params = {...}`, `params = {...}`, and names taken out of an object
; (`const { QUEUE_URL } = process.env`).
; Captures: @assignment (the binding); the names, their value and whether
; each is a property of the value are read from its own fields
; (`fields::bindings`): spelt out here, the shapes cost the query compiler
; 2 ms (TypeScript: 10).
(variable_declarator) @assignment
(assignment_expression) @assignment
