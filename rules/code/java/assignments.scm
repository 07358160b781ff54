; Names bound to a value: locals and fields (`String queueUrl = System.getenv("QUEUE_URL");`,
; `private static final String QUEUE_URL = ...;`), and assignments.
; Captures: @assignment (the binding), @name (the name), @value (its value).
(variable_declarator name: (identifier) @name value: (_) @value) @assignment
(assignment_expression left: (identifier) @name right: (_) @value) @assignment
; What is added to a map or list a name is bound to, which the name's value
; then holds too: `body.put("k", v)`, `items.add(v)`. Captures @adds besides.
((method_invocation
   object: (identifier) @name
   name: (identifier) @method
   arguments: (argument_list (_) @value)) @assignment @adds
  (#any-of? @method "put" "putIfAbsent" "putAll" "add" "addAll"))
