; Names bound to a value: locals and fields (`String queueUrl = System.getenv("QUEUE_URL");`,
; `private static final String QUEUE_URL = ...;`), and assignments.
; Captures: @assignment (the binding), @name (the name), @value (its value).
(variable_declarator name: (identifier) @name value: (_) @value) @assignment
(assignment_expression left: (identifier) @name right: (_) @value) @assignment
