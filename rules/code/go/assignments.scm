; Names bound to a value: `queueURL := os.Getenv("QUEUE_URL")`,
; `input = &sqs.SendMessageInput{...}`, `var`/`const` specs (the first name
; of a list is bound to the first value).
; Captures: @assignment (the binding), @name (the name), @value (its value).
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (_) @value)) @assignment
(assignment_statement
  left: (expression_list . (identifier) @name)
  right: (expression_list . (_) @value)) @assignment
(var_spec name: (identifier) @name value: (expression_list . (_) @value)) @assignment
(const_spec name: (identifier) @name value: (expression_list . (_) @value)) @assignment
