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
; What is added to a map or slice a name is bound to, which the name's
; value then holds too: `body["k"] = v`, `body.SentAt = v`,
; `items = append(items, v)` (read as an assignment above). Captures @adds
; besides.
(assignment_statement
  left: (expression_list . (index_expression operand: (identifier) @name))
  right: (expression_list . (_) @value)) @assignment @adds
(assignment_statement
  left: (expression_list . (selector_expression operand: (identifier) @name))
  right: (expression_list . (_) @value)) @assignment @adds
